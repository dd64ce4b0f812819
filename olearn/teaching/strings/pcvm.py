"""UI strings: PCVM (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "pcvm.title": (
        "PCVM: EM iterations with a learned noise precision γ",
        "PCVM: ノイズ精度 γ を学習する EM 反復",
    ),
    "pcvm.intro": (
        "A sparse kernel classifier: one weight per training point, most of them switched off "
        "by the EM. Seed 002 adds a noise precision γ with a prior of scale λ; γ = 1 is Chen's "
        "original PCVM. Slide through the iterations to watch γ, the weights left (circled) "
        "and the boundary.",
        "訓練点ごとに一つの重みを持ち、EM がその多くを 0 にする疎なカーネル分類器です。"
        "seed 002 はスケール λ の事前分布を持つノイズ精度 γ を加えます。γ = 1 は Chen の元の"
        "PCVM です。反復をスライドして γ、残った重み (丸)、境界を見てください。",
    ),
    "pcvm.data": ("Data", "データ"),
    "pcvm.lambda": (
        "λ (γ's prior scale; 0 = fixed γ = 1)",
        "λ (γ の事前分布のスケール; 0 = γ = 1 固定)",
    ),
    "pcvm.theta": ("RBF width θ", "RBF の幅 θ"),
    "pcvm.animate": ("Animate the iterations", "反復をアニメーション表示"),
    "pcvm.iteration": ("EM iteration", "EM 反復"),
    "pcvm.iter_title": (
        "Iteration {i}: γ = {gamma}, {nz} weights left",
        "反復 {i}: γ = {gamma}, 残った重み {nz} 個",
    ),
    "pcvm.vectors": ("weights left (non-zero)", "残った重み (非ゼロ)"),
    "pcvm.nonzero": ("non-zero weights", "非ゼロの重み"),
    "pcvm.history": ("γ and the weights left, per iteration", "反復ごとの γ と残った重み"),
    "pcvm.sweep": (
        "The λ sweep (seed 002, Tables 1-3) on this data",
        "このデータでの λ の掃引 (seed 002, 表 1-3)",
    ),
}
