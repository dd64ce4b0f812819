// The colour theme (olearn.app.components.theme): carry the lecturer's choice to Streamlit
// (its embed option light_theme / dark_theme in the URL, one reload), and report the theme
// the page shows when the server drew its figures in another.  data-shown on the root.

const EMBED = 'embed_options';
const OURS = ['light_theme', 'dark_theme'];

// The page's theme from its background: dark below WCAG relative luminance 0.2.
function shownTheme() {
  const app = document.querySelector('.stApp') || document.body;
  const [r, g, b] = (getComputedStyle(app).backgroundColor.match(/[\d.]+/g) || [255, 255, 255])
    .slice(0, 3)
    .map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.2 ? 'dark' : 'light';
}

// The URL that makes Streamlit show `choice` (null: this one already does).
function urlFor(choice) {
  const url = new URL(location.href);
  const others = url.searchParams.getAll(EMBED).filter((v) => !OURS.includes(v.toLowerCase()));
  const have = url.searchParams.getAll(EMBED).filter((v) => OURS.includes(v.toLowerCase()));
  const want = choice === 'light' || choice === 'dark' ? [`${choice}_theme`] : [];
  if (have.join() === want.join()) return null;
  url.searchParams.delete(EMBED);
  for (const v of [...others, ...want]) url.searchParams.append(EMBED, v);
  if (choice === 'auto') url.searchParams.delete('theme');
  else url.searchParams.set('theme', choice);
  return url.toString();
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const cfg = JSON.parse(data.config);
  const root = parentElement.querySelector('.olt');
  if (cfg.switchable) {
    const next = urlFor(cfg.choice);
    const tried = `olearn.theme.reload:${next}`;
    const last = Number(sessionStorage.getItem(tried) || 0);
    if (next && Date.now() - last > 10000) {
      sessionStorage.setItem(tried, String(Date.now())); // never a loop of reloads
      location.replace(next);
      return;
    }
  }
  const shown = shownTheme();
  root.dataset.shown = shown;
  document.documentElement.dataset.olearnTheme = shown; // (legible.css reads it)
  const key = Symbol.for('olearn.theme.reported');
  if (shown !== cfg.drawn && globalThis[key] !== shown) {
    globalThis[key] = shown; // (once: the report's rerun may mount us before it draws anew)
    setTriggerValue('shown', shown);
  }
}
