"""UI strings: PCVM (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "pcvm.title": (
        "PCVM: EM iterations with a learned noise precision γ",
        "PCVM: ノイズ精度 γ を学習する EM 反復",
    ),
    "pcvm.intro": (
        "A sparse kernel classifier: one weight per training point, most of them switched off "
        "by the EM. [[002]] adds a noise precision γ with a prior of scale λ; γ = 1 is Chen's "
        "original PCVM. Slide through the iterations to watch γ, the weights left (circled) "
        "and the boundary.",
        "訓練点ごとに一つの重みを持ち、EM がその多くを 0 にする疎なカーネル分類器です。"
        "[[002]] はスケール λ の事前分布を持つノイズ精度 γ を加えます。γ = 1 は Chen の元の"
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
    "pcvm.iteration_log": ("EM iteration (log scale)", "EM 反復 (対数目盛)"),
    "pcvm.gamma_log": ("γ (log scale)", "γ (対数目盛)"),
    "pcvm.step_text": (
        "Iteration {i} of {n}: γ = {gamma}, {nz} of {N} weights left, training error "
        "{err} %. Most of the change happens in the first iterations: the slider and the "
        "animation take them one by one, then larger strides.",
        "反復 {i} / {n}: γ = {gamma}、{N} 個中 {nz} 個の重みが残り、訓練誤り率 {err} %。"
        "変化の大部分は最初の数回の反復で起こります: スライダーとアニメーションは"
        "最初は一回ずつ、その後は大きな刻みで進みます。",
    ),
    "pcvm.col.lambda": ("λ", "λ"),
    "pcvm.col.gamma": ("γ", "γ"),
    "pcvm.col.nonzero": ("non-zero weights", "非ゼロの重み"),
    "pcvm.col.accuracy": ("test accuracy %", "テスト正解率 %"),
    "pcvm.col.iterations": ("iterations", "反復回数"),
    "pcvm.gamma_one": ("γ = 1 (Chen)", "γ = 1 (Chen)"),
    "pcvm.iter_title": (
        "Iteration {i}: γ = {gamma}, {nz} weights left",
        "反復 {i}: γ = {gamma}, 残った重み {nz} 個",
    ),
    "pcvm.vectors": ("weights left (non-zero)", "残った重み (非ゼロ)"),
    "pcvm.nonzero": ("non-zero weights", "非ゼロの重み"),
    "pcvm.history": ("γ and the weights left, per iteration", "反復ごとの γ と残った重み"),
    "pcvm.sweep": (
        "The λ sweep ([[002]], Tables 1-3) on this data",
        "このデータでの λ の掃引 ([[002]], 表 1-3)",
    ),
}
