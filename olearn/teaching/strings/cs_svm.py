"""UI strings: Crammer-Singer page (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "cs.title": (
        "The Crammer-Singer SVM, one sub-problem at a time",
        "Crammer-Singer SVM を部分問題ごとに",
    ),
    "cs.intro": (
        "The dual decomposes by example: pick an example p, fix every other dual variable, "
        "solve its small problem exactly (the fixed point of seed 003), repeat. The dual "
        "objective rises, the primal falls, and the gap closes on LIBLINEAR's optimum of the "
        "same objective. One SPA-I step is exactly one such sub-problem.",
        "双対問題は例ごとに分解できます: 例 p を選び、他の双対変数を固定してその小さな問題を"
        "厳密に解き (seed 003 の不動点)、繰り返します。双対目的関数は上がり、主目的関数は"
        "下がり、ギャップは同じ目的関数の LIBLINEAR の最適値に向かって閉じます。SPA-I の"
        "一回の更新はちょうどこの部分問題一つです。",
    ),
    "cs.step": ("Sub-problem (of those that changed W)", "部分問題 (W を変えたもの)"),
    "cs.next": ("Next", "次へ"),
    "cs.prev": ("Back", "前へ"),
    "cs.play": ("▶ Play", "▶ 再生"),
    "cs.pause": ("❚❚ Pause", "❚❚ 一時停止"),
    "cs.play_help": (
        "▶ Play (in the figure) runs every sub-problem that changed W, in your browser; "
        "Next / Back also update the numbers below. The lighter strip along each boundary "
        "is the margin band (best score minus second best < 1).",
        "図の ▶ 再生 は W を変えた部分問題をブラウザ内で順に再生します。"
        "次へ / 前へ は下の数値も更新します。境界に沿った薄い帯はマージンの帯 "
        "(最大のスコアと二番目のスコアの差 < 1) です。",
    ),
    "cs.step_title": (
        "Sub-problem {k} of {n} (sweep\u00a0{sweep})",
        "部分問題 {k} / {n} ({sweep}\u00a0巡目)",
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
    "cs.regions": ("regions after this sub-problem", "この部分問題の後の領域"),
    "cs.primal": ("primal P(W)", "主問題 P(W)"),
    "cs.dual": ("dual D(α)", "双対 D(α)"),
    "cs.liblinear": ("LIBLINEAR's optimum", "LIBLINEAR の最適値"),
    "cs.liblinear_end": ("LIBLINEAR", "LIBLINEAR"),
    "cs.sweep": ("sweep over the examples", "全例の一巡"),
    "cs.objective": ("objective", "目的関数"),
    "cs.gap_title": ("The duality gap closes", "双対ギャップが閉じる"),
    "cs.plane_title": (
        "After sub-problem {s} (example {p} circled)",
        "部分問題 {s} の後 (例 {p} を丸で表示)",
    ),
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
