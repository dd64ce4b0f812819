// What the player (player.js) and the stepper (stepper.js) share, loaded before each of them
// (olearn.app.components.player / olearn.app.components.stepper join the files): a state that outlives a mount, the
// page's keys, and keeping every chart on the shown frame or step.

// The states of one kind of component, by key: Streamlit mounts a component again on every
// rerun, and its state must outlive the mount.
function componentStates(name) {
  const key = Symbol.for(name);
  globalThis[key] = globalThis[key] || new Map();
  return globalThis[key];
}

// The keys a lecturer steps with: what presentation clickers send (PageDown / PageUp), the
// arrows, and space.  `next` / `prev` step; `space` is what space does (the player plays and
// pauses, the others step forward).
function stepKeys({ next, prev, space }) {
  return {
    ArrowRight: next,
    PageDown: next,
    ArrowLeft: prev,
    PageUp: prev,
    ' ': space || next,
  };
}

// Whether the element the key went to does something with it itself: a field typed in, a
// slider, a list, a radio group or a tab list (the arrows and the page keys are theirs), and
// on a button, a link, a switch or a check box, space and Enter (they press it).
function keyIsTheirs(el, key) {
  if (!el || el === document.body) return false;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName || '') || el.isContentEditable) return true;
  const own =
    '[role=slider],[role=spinbutton],[role=textbox],[role=combobox],[role=listbox],' +
    '[role=option],[role=radio],[role=radiogroup],[role=tab],[role=tablist],[role=menu],' +
    '[role=menuitem],[role=grid],[role=gridcell],[role=dialog]';
  if (el.closest?.(own)) return true;
  const pressable = 'button,a,summary,[role=button],[role=switch],[role=checkbox],label';
  return (key === ' ' || key === 'Enter') && Boolean(el.closest?.(pressable));
}

// Listen to the page's keys for the component whose root is `root`: `actions` maps a key
// (KeyboardEvent.key) to what it does.  A key the focused element uses itself is left to it
// (keyIsTheirs: a number typed into a field never steps), and so is any key with Ctrl, Alt or
// Meta; the handler (kept in `S.keys`, replacing the previous mount's) does nothing once `root`
// left the page.  Returns the function that stops listening.
function bindKeys(S, root, actions) {
  if (S.keys) document.removeEventListener('keydown', S.keys);
  S.keys = (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
    // the element the key went to, also inside a shadow root (e.target is then its host)
    const typed = e.composedPath()[0] || e.target;
    if (keyIsTheirs(typed, e.key)) return;
    if (!root.isConnected) return; // (a component's root is in a shadow root)
    const act = actions[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  document.addEventListener('keydown', S.keys);
  const keys = S.keys;
  return () => document.removeEventListener('keydown', keys);
}

// Visit every chart of `charts()` (plotly graph divs) once per animation frame after Streamlit
// drew one with the server's figure (plotly's afterplot event: `redrawn(gd)` first) or the
// page changed (a MutationObserver), then call `done()`.  Returns the function that stops.
function watchCharts(charts, visit, { redrawn, done } = {}) {
  const hooked = new WeakSet();
  let pending = 0;
  function schedule() {
    if (!pending) pending = requestAnimationFrame(sync);
  }
  function sync() {
    pending = 0;
    for (const gd of charts()) {
      if (!hooked.has(gd) && gd.on) {
        hooked.add(gd);
        gd.on('plotly_afterplot', () => {
          redrawn?.(gd);
          schedule();
        });
      }
      visit(gd);
    }
    done?.();
  }
  const observer = new MutationObserver(schedule);
  observer.observe(document.body, { childList: true, subtree: true });
  schedule();
  return () => {
    observer.disconnect();
    cancelAnimationFrame(pending);
  };
}

// The value of the URL parameter `name` (the server writes the URL).
function urlParam(name) {
  return new URL(location.href).searchParams.get(name);
}

// Hold this component's reports from a press elsewhere on the page (a button, another widget)
// until the component is mounted again, or `wait` ms have passed: `S.held`, the report due
// meanwhile kept in `S.owed` and sent then.  Such a press asks the server for a run of its
// own, and a report reaching the server just after it, while that run starts and before its
// callbacks ran, makes Streamlit (1.67) drop the press: the newer request replaces the one
// its run took (Regenerate clicked just after Pause was lost, see olearn/app/components/player.py).  A
// mount means a run reached the component, past its callbacks.  Call on every mount (it
// releases what the last press held); returns the function that stops listening.
function holdReportsOnPresses(S, root, wait = 3000) {
  if (S.presses) document.removeEventListener('pointerdown', S.presses, true);
  S.presses = (e) => {
    if (!root.isConnected || e.composedPath().includes(root)) return;
    S.held = true;
    clearTimeout(S.heldTimer);
    S.heldTimer = setTimeout(() => releaseReports(S), wait);
  };
  document.addEventListener('pointerdown', S.presses, true);
  releaseReports(S);
  const presses = S.presses;
  return () => document.removeEventListener('pointerdown', presses, true);
}

// End the hold of `holdReportsOnPresses`: send the report that waited, if one did.
function releaseReports(S) {
  clearTimeout(S.heldTimer);
  S.held = false;
  const owed = S.owed;
  S.owed = null;
  owed?.();
}

// Report to the server with `send()` (false: nothing to send now), then make sure it arrived:
// the server writes the value it adopted to the URL, so until `arrived()` holds, send again
// (a report can be lost: the rerun it asked for replaced by another one while the server is
// busy), backing off 0.4, 0.8, 1.6... s so a slow server is not interrupted forever; each
// resend counts in `S.resends`.  The timer is `S.confirmTimer` (clear it to stop).
function reportUntilArrived(S, send, arrived, tries = 0) {
  clearTimeout(S.confirmTimer);
  if (S.held) {
    S.owed = () => reportUntilArrived(S, send, arrived); // (holdReportsOnPresses)
    return;
  }
  if (!send() || !arrived || tries >= 8) return;
  S.confirmTimer = setTimeout(
    () => {
      if (!arrived()) {
        S.resends = (S.resends || 0) + 1;
        reportUntilArrived(S, send, arrived, tries + 1);
      }
    },
    400 * 2 ** tries,
  );
}
