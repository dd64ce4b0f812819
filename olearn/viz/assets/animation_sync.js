// The offline animation page (olearn.viz.animate.animation_html): every other chart follows
// the first (its Play and slider drive them all), and the first starts at the frame its slider
// shows (plotly.js's Play would start at frame 0).  The page sets `olearnChartIds` before this.
window.addEventListener('load', () => {
  const ids = window.olearnChartIds;
  const lead = document.getElementById(ids[0]);
  const still = {
    mode: 'immediate',
    frame: { duration: 0, redraw: false },
    transition: { duration: 0 },
  };
  if (!lead || !lead.on) return;
  lead.on('plotly_animatingframe', (e) => {
    for (const id of ids.slice(1)) {
      const gd = document.getElementById(id);
      if (gd?._transitionData) Plotly.animate(gd, [e.name], still);
    }
  });
  const start = () => {
    const frames = lead._transitionData?._frames;
    if (!frames || !frames.length) return setTimeout(start, 50);
    const slider = (lead.layout.sliders || [])[0];
    const step = slider?.steps[slider.active];
    if (step) Plotly.animate(lead, step.args[0], still);
  };
  start();
});
