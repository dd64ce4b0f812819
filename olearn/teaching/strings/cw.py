"""UI strings: confidence-weighted page (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "cw.title": ("One confidence-weighted update", "信頼度重み付き学習の一回の更新"),
    "cw.intro": (
        "CW keeps a Gaussian N(μ, Σ) over the weights. One update moves the mean by α Σ y x "
        "and shrinks the covariance along x by β, just enough that a weight drawn from the "
        "new Gaussian classifies x right with probability η (CW), or trading that off against "
        "a loss (AROW, SCW). Seed 001 teaches all four.",
        "CW は重みに対するガウス分布 N(μ, Σ) を保持します。一回の更新で平均を α Σ y x だけ"
        "動かし、共分散を x の方向に β だけ縮めます。新しい分布から引いた重みが確率 η で x を"
        "正しく分類するのに必要なだけ (CW)、または損失とのトレードオフで (AROW, SCW)。"
        "seed 001 が四つすべてを解説しています。",
    ),
    "cw.rule": ("Rule", "更新則"),
    "cw.eta": ("η (confidence)", "η (信頼度)"),
    "cw.r": ("r (AROW)", "r (AROW)"),
    "cw.C": ("C (SCW)", "C (SCW)"),
    "cw.warmup": ("Updates before this one", "この更新より前の更新回数"),
    "cw.numbers": ("The numbers of this update", "この更新の数値"),
    "cw.verdict": (
        "α = {alpha}, β = {beta}; after the step Pr[y w·x ≥ 0] = {prob} (η = {eta}).",
        "α = {alpha}, β = {beta}; 更新後 Pr[y w·x ≥ 0] = {prob} (η = {eta})。",
    ),
    "cw.fig.weights": ("Weight space: N(μ, Σ), 1σ", "重み空間: N(μ, Σ), 1σ"),
    "cw.fig.input": ("Input space: x and μ·z = 0", "入力空間: x と μ·z = 0"),
    "cw.fig.margin": ("The margin y w·x ~ N(m, v)", "マージン y w·x ~ N(m, v)"),
    "cw.noise_title": (
        "Seed 001's claim: CW breaks under label noise, AROW and SCW do not",
        "seed 001 の主張: CW はラベルノイズで崩れ、AROW と SCW は崩れない",
    ),
    "cw.noise": ("Training labels flipped", "反転した訓練ラベルの割合"),
    "cw.passes": ("Passes", "パス数"),
    "cw.fig.pass": ("pass over the training set", "訓練データのパス"),
    "cw.fig.noise": ("Test error on digits after each pass", "各パス後の digits のテスト誤り率"),
    "cw.noise_caption": (
        "digits (embedded), 70/30 split, rows scaled to unit length, default "
        "parameters; test labels are clean. The full experiment is on the "
        "Reproduce page (cw-family-claims).",
        "digits (同梱), 70/30 分割, 行を単位長に正規化, 既定のパラメータ; "
        "テストラベルはノイズなし。完全な実験は論文の再現ページ "
        "(cw-family-claims) にあります。",
    ),
}
