"""UI strings: reproduce (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "rep.title": ("Reproduce the papers", "論文の再現"),
    "rep.intro": (
        "Each registered reproduction recomputes a table of a seed paper and puts the printed "
        "value beside ours. The quick run (small subsample, few folds) takes seconds to a "
        "minute; the full run follows the paper's protocol and can take long. Real corpora "
        "need $OLEARN_DATA.",
        "登録された各再現は論文の表を再計算し、印刷された値と本実装の値を並べます。"
        "クイック実行 (小さなサブサンプル、少ない分割) は数秒から一分、完全な実行は論文の"
        "手順どおりで時間がかかります。実コーパスには $OLEARN_DATA が必要です。",
    ),
    "rep.choose": ("Reproduction", "再現"),
    "rep.name.matsushima-table4": (
        "Source paper 000, Table 4: error rates of the PA and SPA families, 10-fold CV",
        "元論文 000 の表 4: PA 系と SPA 系の誤り率 (10 分割交差検証)",
    ),
    "rep.name.cw-family-claims": (
        "Source paper 001: the claims on CW, AROW and SCW (one pass, label noise, parameters)",
        "元論文 001: CW・AROW・SCW についての主張 (1 回の走査、ラベル雑音、パラメータ)",
    ),
    "rep.name.pcvm-lambda": (
        "Source paper 002, Tables 1-3: PCVM's accuracy, gamma and non-zero weights against lambda",
        "元論文 002 の表 1-3: λ に対する PCVM の正解率・γ・非零の重み",
    ),
    "rep.name.ono-sgd-figure1": (
        "Source paper 004, Figure 1: SGD-SVM with per-feature learning rates",
        "元論文 004 の図 1: 素性ごとの学習率をもつ SGD-SVM",
    ),
    "rep.quick": ("Run (quick)", "実行 (クイック)"),
    "rep.full": ("Run the full reproduction", "完全な再現を実行"),
    "rep.press": (
        "Press a button to run it; results are cached.",
        "ボタンを押すと実行します。結果はキャッシュされます。",
    ),
    "rep.press_full": (
        "This link names the full reproduction, which takes minutes: press 'Run the full "
        "reproduction' to start it (a link never starts a long run).",
        "このリンクは完全な再現を指定していますが、数分かかります。「完全な再現を実行」を"
        "押すと開始します (リンクだけで長い実行は始まりません)。",
    ),
    "rep.table.claims": (
        "The seed's claims: reproduced or not (last epochs)",
        "論文の主張: 再現されたか (最終エポック)",
    ),
    "rep.table.tests": (
        "Paired tests over folds (mean_diff = a - b in points; p_value: paired t; "
        "p_wilcoxon: signed-rank)",
        "分割ごとの対応のある検定 (mean_diff = a - b、ポイント; p_value: 対応のある t 検定; "
        "p_wilcoxon: 符号付き順位検定)",
    ),
    "rep.diagnostic": (
        "'PA (mistakes only)' is a diagnostic, not a learner of the paper: PA whose rival is "
        "the best-scoring class among all, the true one included, so it updates only on "
        "mistakes, like the Perceptron. It tests a conjecture about the paper's code: the "
        "paper's PA ties its Perceptron and trails SPA; if this row does the same while the "
        "exact PA does not, a mistake-driven PA would explain the paper's gap.",
        "「PA (誤りのみ)」は論文の学習器ではなく診断用の行です。正解クラスも含めた全クラスで"
        "最高スコアのクラスを対抗クラスとする PA で、パーセプトロンと同じく誤ったときだけ"
        "更新します。論文のコードについての仮説を調べます: 論文の PA はパーセプトロンと同程度で"
        " SPA に劣ります。この行が同じ傾向を示し、厳密な PA が示さないなら、誤り駆動の PA が"
        "論文の差を説明することになります。",
    ),
    "rep.missing": ("Not in this build yet: {id}", "このビルドにはまだありません: {id}"),
    "rep.mode": ("Showing the {mode} run.", "{mode} 実行の結果を表示しています。"),
    "rep.mode.quick": ("quick", "クイック"),
    "rep.mode.full": ("full", "完全な"),
    "rep.scatter": (
        "Paper vs ours (one point per cell; the diagonal is agreement)",
        "論文と本実装 (セルごとに一点; 対角線上なら一致)",
    ),
    "rep.paper_axis": ("paper", "論文"),
    "rep.ours_axis": ("ours", "本実装"),
    "rep.summary": ("Setup, choices and verdicts", "設定・選択・結論"),
}
