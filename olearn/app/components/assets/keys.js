// The step keys of a page stepped by the server (olearn.app.components.keys): a key presses the
// page's own Next / Previous button (a Streamlit button, found by its key's class), as a click
// would.  data-presses on the root counts the presses.

const keyStates = componentStates('olearn.keys'); // (component_base.js)

export default function (component) {
  const { data, parentElement } = component;
  const cfg = JSON.parse(data.config);
  const root = parentElement.querySelector('.olk');
  let S = keyStates.get(cfg.next);
  if (!S) {
    S = { presses: 0 };
    keyStates.set(cfg.next, S);
  }
  const press = (cls) => () => {
    const button = document.querySelector(`.${cls} button`);
    if (!button || button.disabled) return;
    button.click();
    S.presses += 1;
    root.dataset.presses = S.presses;
  };
  root.dataset.presses = S.presses;
  return bindKeys(S, root, stepKeys({ next: press(cfg.next), prev: press(cfg.prev) }));
}
