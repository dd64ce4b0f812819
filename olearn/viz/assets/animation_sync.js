// The offline animation page (olearn.viz.animate.animation_html), on plotly.js's public API
// only: each chart is drawn with its frames (Plotly.newPlot), every other chart follows the
// first (its Play and slider drive them all, through the documented plotly_animatingframe
// event), and the first starts at the frame its slider shows (plotly.js's Play would start
// at frame 0).  The page sets `olearnAnimation` ({charts: [{id, figure}], config}) before this.
(() => {
  const { charts, config } = window.olearnAnimation;
  const still = {
    mode: 'immediate',
    frame: { duration: 0, redraw: false },
    transition: { duration: 0 },
  };
  const drawn = charts.map(({ id, figure }) =>
    Plotly.newPlot(id, { data: figure.data, layout: figure.layout, frames: figure.frames, config }),
  );
  Promise.all(drawn).then(([lead, ...followers]) => {
    lead.on('plotly_animatingframe', (e) => {
      for (const gd of followers) Plotly.animate(gd, [e.name], still);
    });
    const slider = (lead.layout.sliders || [])[0];
    const step = slider?.steps[slider.active];
    if (step) Plotly.animate(lead, step.args[0], still);
  });
})();
