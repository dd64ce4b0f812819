"""UI strings: Crammer-Singer page (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "cs.title": (
        "The Crammer-Singer SVM, one sub-problem at a time",
        "Crammer-Singer SVM を部分問題ごとに",
    ),
    "cs.intro": (
        "The dual decomposes by example: pick an example p, fix every other dual variable, "
        "solve its small problem exactly (the fixed point of [[003]]), repeat. The dual "
        "objective rises, the primal falls, and the gap closes on LIBLINEAR's optimum of the "
        "same objective. One SPA-I step is exactly one such sub-problem.",
        "双対問題は例ごとに分解できます: 例 p を選び、他の双対変数を固定してその小さな問題を"
        "厳密に解き ([[003]] の不動点)、繰り返します。双対目的関数は上がり、主目的関数は"
        "下がり、ギャップは同じ目的関数の LIBLINEAR の最適値に向かって閉じます。SPA-I の"
        "一回の更新はちょうどこの部分問題一つです。",
    ),
    "cs.play_help": (
        "Play, Step and the slider run the sub-problems that changed W in your browser; the "
        "text above follows every frame, and the table below shows the sub-problem you stop "
        "at. The lighter strip along each boundary is the margin band (best score minus "
        "second best < 1).",
        "再生・ステップ・スライダーは W を変えた部分問題をブラウザ内で順に表示します。上の"
        "説明はフレームごとに変わり、下の表は止めた部分問題を示します。境界に沿った薄い帯は"
        "マージン帯 (最大スコアと 2 番目の差 < 1) です。",
    ),
    "cs.table_title": (
        "Sub-problem {k} of {n}: the numbers",
        "部分問題 {k} / {n} の数値",
    ),
    "cs.frame_title": (
        "Sub-problem {k}: example {p} (class {y}), sweep {sweep}",
        "部分問題 {k}: 例 {p} (クラス {y}), {sweep} 巡目",
    ),
    "cs.col.class": ("class", "クラス"),
    "cs.col.G": ("G_m = w_m·x_p + e_m", "G_m = w_m·x_p + e_m"),
    "cs.col.alpha_before": ("α before", "更新前の α"),
    "cs.col.alpha_after": ("α after", "更新後の α"),
    "cs.col.tau": ("τ after (seed)", "更新後の τ (seed)"),
    "cs.now": ("now", "現在"),
    "cs.primal": ("primal P(W)", "主問題 P(W)"),
    "cs.dual": ("dual D(α)", "双対 D(α)"),
    "cs.liblinear": ("LIBLINEAR's optimum", "LIBLINEAR の最適値"),
    "cs.liblinear_end": ("LIBLINEAR", "LIBLINEAR"),
    "cs.sweep": ("sweep over the examples", "全例の一巡"),
    "cs.objective": ("objective", "目的関数"),
    "cs.x1": ("feature 1", "特徴 1"),
    "cs.x2": ("feature 2", "特徴 2"),
    "cs.step_text": (
        "Example p = {p} (class {y}), ‖x_p‖² = {A}, KKT violation {v}. Fixed point: θ went "
        "{thetas}. Support classes (α < 0): {S}.",
        "例 p = {p} (クラス {y}), ‖x_p‖² = {A}, KKT 違反 {v}。不動点: θ の推移 {thetas}。"
        "サポートクラス (α < 0): {S}。",
    ),
    "cs.final": (
        "Final gap {gap} after {sweeps} sweeps; ours {ours} vs LIBLINEAR {ref}.",
        "{sweeps} 回の一巡の後のギャップ {gap}; 本実装 {ours}, LIBLINEAR {ref}。",
    ),
}
