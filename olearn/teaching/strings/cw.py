"""UI strings: confidence-weighted page (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "cw.fig.error_log": ("test error (%, log scale)", "テスト誤り率 (%、対数目盛)"),
    "cw.title": ("One confidence-weighted update", "信頼度重み付き学習の一回の更新"),
    "cw.intro": (
        "CW keeps a Gaussian N(μ, Σ) over the weights. One update moves the mean by α Σ y x "
        "and shrinks the covariance along x by β, just enough that a weight drawn from the "
        "new Gaussian classifies x right with probability η (CW), or trading that off against "
        "a loss (AROW, SCW). [[001]] teaches all four.",
        "CW は重みに対するガウス分布 N(μ, Σ) を保持します。一回の更新で平均を α Σ y x だけ"
        "動かし、共分散を x の方向に β だけ縮めます。新しい分布から引いた重みが確率 η で x を"
        "正しく分類するのに必要なだけ (CW)、または損失とのトレードオフで (AROW, SCW)。"
        "[[001]] が四つすべてを解説しています。",
    ),
    "cw.rule": ("Rule", "更新則"),
    "walks.settings": ("Settings", "設定"),
    "cw.eta": ("η (confidence)", "η (信頼度)"),
    "cw.warmup": ("Start at example", "開始する例の番号"),
    "cw.next": ("Next update", "次の更新"),
    "cw.prev": ("Restart", "最初から"),
    "cw.back": ("◀ Previous", "◀ 前へ"),
    "cw.k_of": ("update {k} of {n}", "更新 {k} / {n}"),
    "cw.step_title": (
        "Update {k}: example {i} of {n} (y\u00a0=\u00a0{y})",
        "更新 {k}: 例 {i} / {n} (y\u00a0=\u00a0{y})",
    ),
    "cw.step_text": (
        "Margin m = y μ·x = {m}, its variance v = xᵀΣx = {v}, loss {loss}. "
        "The mean moves by α Σ y x with α = {alpha}; the covariance shrinks along x by "
        "β = {beta}. After the step Pr[y w·x ≥ 0] = {prob}.",
        "マージン m = y μ·x = {m}、その分散 v = xᵀΣx = {v}、損失 {loss}。"
        "平均は α Σ y x だけ動き (α = {alpha})、共分散は x の方向に β = {beta} だけ縮みます。"
        "更新後 Pr[y w·x ≥ 0] = {prob}。",
    ),
    "cw.step_eta": (
        "CW asks for η = {eta}: the new Gaussian must classify x right with that probability.",
        "CW は η = {eta} を要求します: 新しい分布が確率 η で x を正しく分類すること。",
    ),
    "cw.exhausted": (
        "No example from here on has a loss: the stream is learned. Restart, or change the "
        "rule or the seed.",
        "ここから先の例には損失がありません: ストリームは学習済みです。最初からやり直すか、"
        "更新則か乱数シードを変えてください。",
    ),
    "cw.q.m": ("margin m = y μ·x", "マージン m = y μ·x"),
    "cw.q.v": ("variance v = xᵀΣx", "分散 v = xᵀΣx"),
    "cw.q.loss": ("loss", "損失"),
    "cw.q.phi": ("φ = Φ⁻¹(η)", "φ = Φ⁻¹(η)"),
    "cw.q.alpha": ("α (mean step)", "α (平均の更新幅)"),
    "cw.q.beta": ("β (covariance step)", "β (共分散の更新幅)"),
    "cw.q.m_after": ("m after", "更新後の m"),
    "cw.q.v_after": ("v after", "更新後の v"),
    "cw.q.prob": ("Pr[y w·x ≥ 0] after", "更新後の Pr[y w·x ≥ 0]"),
    "cw.q.eta": ("η", "η"),
    "cw.q.holds": ("constraint holds", "制約を満たす"),
    "cw.q.capped": ("α capped at C", "α が C で頭打ち"),
    "cw.col.quantity": ("quantity", "量"),
    "cw.col.value": ("value", "値"),
    "cw.yes": ("yes", "はい"),
    "cw.no": ("no", "いいえ"),
    "cw.numbers": ("The numbers of this update", "この更新の数値"),
    "cw.verdict": (
        "α = {alpha}, β = {beta}; after the step Pr[y w·x ≥ 0] = {prob} (η = {eta}).",
        "α = {alpha}, β = {beta}; 更新後 Pr[y w·x ≥ 0] = {prob} (η = {eta})。",
    ),
    "cw.fig.weights": ("Weight space: N(μ, Σ), 1σ", "重み空間: N(μ, Σ), 1σ"),
    "cw.fig.input": ("Input space: the stream and μ·z = 0", "入力空間: ストリームと μ·z = 0"),
    "cw.fig.margin": ("The margin y w·x ~ N(m, v)", "マージン y w·x ~ N(m, v)"),
    "cw.fig.right": ("y w·x ≥ 0 (x right)", "y w·x ≥ 0 (x が正解)"),
    "cw.fig.path": ("path of μ", "μ の軌跡"),
    "cw.fig.x": ("x (y = {y})", "x (y = {y})"),
    "cw.fig.seen": ("earlier examples", "これまでの例"),
    "cw.fig.density": ("density", "密度"),
    "cw.fig.mu_before": ("μ before", "更新前の μ"),
    "cw.fig.mu_after": ("μ after", "更新後の μ"),
    "cw.noise_title": (
        "The claim of [[001]]: CW breaks under label noise, AROW and SCW do not",
        "[[001]] の主張: CW はラベルノイズで崩れ、AROW と SCW は崩れない",
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
