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
    "rep.quick": ("Run (quick)", "実行 (クイック)"),
    "rep.full": ("Run the full reproduction", "完全な再現を実行"),
    "rep.press": (
        "Press a button to run it; results are cached.",
        "ボタンを押すと実行します。結果はキャッシュされます。",
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
