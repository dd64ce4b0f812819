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
        "[[000]], Table 4: error rates of the PA and SPA families, 10-fold CV",
        "[[000]] の表 4: PA 系と SPA 系の誤り率 (10 分割交差検証)",
    ),
    "rep.name.matsushima-digits": (
        "[[000]], Table 4's protocol on scikit-learn's digits (embedded: runs "
        "offline; not the paper's data)",
        "[[000]] の表 4 の手順を scikit-learn の digits で (同梱データ: オフラインで"
        "実行可; 論文のデータではありません)",
    ),
    "rep.name.cw-family-claims": (
        "[[001]]: the claims on the CW family (one pass, label noise, parameters, "
        "AROW against NHERD)",
        "[[001]]: CW 系 (CW・AROW・SCW・NHERD) についての主張 (1 回の走査、ラベル雑音、"
        "パラメータ、AROW と NHERD の比較)",
    ),
    "rep.name.pcvm-lambda": (
        "[[002]], Tables 1-3: PCVM's accuracy, gamma and non-zero weights against lambda",
        "[[002]] の表 1-3: λ に対する PCVM の正解率・γ・非零の重み",
    ),
    "rep.name.ono-sgd-figure1": (
        "[[004]], Figure 1: SGD-SVM with per-feature learning rates",
        "[[004]] の図 1: 素性ごとの学習率をもつ SGD-SVM",
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
        "分割ごとの対応のある検定 (平均差 = a − b、ポイント; p 値は対応のある t 検定と"
        "符号付き順位検定)",
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
    "rep.cli": (
        "CLI output (as printed by `olearn reproduce`)",
        "コマンドラインの出力 (`olearn reproduce` と同じ、英語)",
    ),
    "rep.csv_help": (
        "The CSV keeps the original column names and values (English, machine-readable).",
        "CSV は元の列名と値のまま (英語、機械で読める形) です。",
    ),
    # the result tables' columns (the English is the column's own name: the CSV's header)
    "rep.col.dataset": ("dataset", "データセット"),
    "rep.col.algorithm": ("algorithm", "アルゴリズム"),
    "rep.col.epochs": ("epochs", "エポック数"),
    "rep.col.paper": ("paper", "論文"),
    "rep.col.ours": ("ours", "本実装"),
    "rep.col.diff": ("diff", "差 (本実装 − 論文)"),
    "rep.col.ours_other_folds": ("ours_other_folds", "本実装 (調整に使った分割を除く)"),
    "rep.col.std": ("std", "標準偏差"),
    "rep.col.tuning_fold_spread": ("tuning_fold_spread", "調整用の分割による変動幅"),
    "rep.col.ours_nested": ("ours_nested", "本実装 (入れ子の交差検証)"),
    "rep.col.params": ("params", "パラメータ"),
    "rep.col.converged": ("converged", "収束"),
    "rep.col.train_time": ("train_time", "学習時間 (秒、1 回あたり)"),
    "rep.col.note": ("note", "注記"),
    "rep.col.a": ("a", "a"),
    "rep.col.b": ("b", "b"),
    "rep.col.mean_diff": ("mean_diff", "平均差 (a − b)"),
    "rep.col.p_value": ("p_value", "p 値 (t 検定)"),
    "rep.col.p_wilcoxon": ("p_wilcoxon", "p 値 (符号付き順位検定)"),
    "rep.col.t_stat": ("t_stat", "t 統計量"),
    "rep.col.std_diff": ("std_diff", "差の標準偏差"),
    "rep.col.wins": ("wins", "a が低い分割"),
    "rep.col.losses": ("losses", "a が高い分割"),
    "rep.col.n_folds": ("n_folds", "分割数"),
    "rep.col.paper_diff": ("paper_diff", "論文の差 (a − b)"),
    "rep.col.claim": ("claim", "主張"),
    "rep.col.verdict": ("verdict", "判定"),
    "rep.col.noise_pct": ("noise_pct", "ラベル雑音 (%)"),
    "rep.col.passes": ("passes", "走査回数"),
    "rep.col.seed_pair": ("seed_pair", "論文の対応する対"),
    "rep.col.measure": ("measure", "指標"),
    "rep.col.fit_time_s": ("fit_time_s", "学習時間 (秒)"),
    "rep.col.n_iter": ("n_iter", "反復回数"),
    "rep.col.paper_claim": ("paper_claim", "論文の主張"),
    "rep.col.ours_std": ("ours_std", "本実装の標準偏差"),
    "rep.col.time": ("time", "最良までの学習時間 (秒)"),
    "rep.col.epochs_to_best": ("epochs_to_best", "最良までのエポック数"),
    "rep.col.final_F": ("final_F", "最後の F 値 (%)"),
    "rep.col.total_time": ("total_time", "総学習時間 (秒)"),
    "rep.col.final_E": ("final_E", "最後の目的関数 E"),
    "rep.col.min_E": ("min_E", "目的関数 E の最小値"),
    "rep.col.lam": ("lam", "λ"),
    "rep.col.n_train": ("n_train", "学習データ数"),
    "rep.col.runs": ("runs", "実行回数"),
    # cell values, matched whole (the English is the value exactly as a reproduction writes it)
    "rep.val.reproduces": ("reproduces", "再現する"),
    "rep.val.does_not_reproduce": ("does not reproduce", "再現しない"),
    "rep.val.same_direction": ("same direction, not significant", "同じ向き (有意でない)"),
    "rep.val.not_run": ("not run", "未実行"),
    "rep.val.holds": ("holds", "成り立つ"),
    "rep.val.does_not_hold": ("does not hold", "成り立たない"),
    "rep.val.mixed": ("mixed", "データセットにより異なる"),
    "rep.val.accuracy": ("accuracy %", "正解率 (%)"),
    "rep.val.gamma": ("gamma", "γ"),
    "rep.val.nonzero": ("non-zero weights", "非零の重み"),
    "rep.val.note_mistakes": (
        "diagnostic, not in the paper: PA updating only on mistakes (rival = argmax over all "
        "classes); tests whether a mistake-driven PA explains the paper's Perc ~ PA < SPA",
        "診断用 (論文にはない): 誤ったときだけ更新する PA (対抗クラス = 全クラスでの argmax)。"
        "誤り駆動の PA が論文の Perc ≈ PA < SPA を説明するかを調べる",
    ),
    "rep.val.batch_below_online": (
        "best batch learner (Maxent, SVM) below every online learner",
        "バッチ学習器 (Maxent, SVM) の良いほうの誤り率がどのオンライン学習器よりも低い",
    ),
    "rep.val.sgd_balanced": (
        "data (1): per-feature rates reach a better model sooner and a higher max F",
        "データ (1): 素性ごとの学習率のほうが早くよいモデルに達し、F 値の最大値も高い",
    ),
    "rep.val.sgd_rare": (
        "data (2): no significant difference between the two schedules",
        "データ (2): 二つの学習率の間に有意な差はない",
    ),
    "rep.val.cw1": ("1. CW converges in about one pass", "1. CW はほぼ 1 回の走査で収束する"),
    "rep.val.cw2": ("2. CW breaks under label noise", "2. CW はラベル雑音で性能が急に落ちる"),
    "rep.val.cw3": (
        "3. AROW and SCW-I survive label noise",
        "3. AROW と SCW-I はラベル雑音に耐える",
    ),
    "rep.val.cw4": (
        "4. AROW's one parameter is easier than SCW's two",
        "4. パラメータが一つの AROW は、二つの SCW より調整しやすい",
    ),
    "rep.val.cw5": (
        "5. SCW-II is clearly worse than SCW-I (postscript)",
        "5. SCW-II は SCW-I より明らかに悪い (追記)",
    ),
    "rep.val.cw6": (
        "6. tuned AROW and tuned SCW-I perform about the same (postscript)",
        "6. 調整した AROW と調整した SCW-I はほぼ同じ性能 (追記)",
    ),
    "rep.val.cw7": (
        "7. AROW is usually better than NHERD",
        "7. NHERD もたまに見るが、たいていは AROW のほうが良い",
    ),
    # cell patterns, tried in this order; each {field} is itself translated (names stay)
    "rep.pat.diagnostic": ("diagnostic: {claim}", "診断: {claim}"),
    "rep.pat.below": ("{a} below {b}", "{a} の誤り率が {b} より低い"),
    "rep.pat.within": (
        "{a} within {x} point of {b}",
        "{a} と {b} の誤り率の差が {x} ポイント以内",
    ),
    "rep.pat.and": ("{a} and {b}", "{a} と {b}"),
    "rep.pat.vs": ("{x} vs {y}", "{x} 対 {y}"),
    "rep.pat.paired": (
        "{d} (p {t} t, {w} Wilcoxon, {k}/{n} folds)",
        "{d} (p 値: t 検定 {t}、符号付き順位検定 {w}; a が低い分割 {k}/{n})",
    ),
    # the computed summary (olearn.teaching.reproduce_summary)
    "rep.sum.ran": (
        "The {mode} run, on {n} dataset(s): {datasets}.",
        "{mode} 実行、データセット {n} 個: {datasets}。",
    ),
    "rep.sum.datasets": ("{n} dataset(s): {datasets}.", "データセット {n} 個: {datasets}。"),
    "rep.sum.list_sep": (", ", "、"),
    "rep.sum.setup.matsushima-table4": (
        "{folds}-fold cross-validation, {samples}; test error after {epochs} epoch(s); C "
        "chosen {tuning}.",
        "{folds} 分割交差検証、{samples}; テスト誤り率は {epochs} エポック後; C は{tuning}で選択。",
    ),
    "rep.sum.samples": ("at most {n} samples per dataset", "各データセット最大 {n} 件"),
    "rep.sum.samples_all": ("all samples", "全サンプル"),
    "rep.sum.tuning_fold": ("on fold {fold}", "分割 {fold} "),
    "rep.sum.tuning_nested": ("by nested cross-validation", "入れ子の交差検証"),
    "rep.sum.sizes": (
        "Samples used (the paper's Table 3 in brackets): {sizes}.",
        "使ったサンプル数 (括弧内は論文の表 3): {sizes}。",
    ),
    "rep.sum.size": ("{dataset} {n} ({paper})", "{dataset} {n} ({paper})"),
    "rep.sum.setup.cw-family-claims": (
        "Label noise {noise} on the training part; {passes} passes; {seeds} repetition(s); "
        "{samples}.",
        "学習部分にラベル雑音 {noise}; 走査 {passes} 回; 繰り返し {seeds} 回; {samples}。",
    ),
    "rep.sum.train_samples": ("at most {n} training samples", "学習データ最大 {n} 件"),
    "rep.sum.setup.pcvm-lambda": (
        "λ = {lambdas}; the SVM (C = {C}) on the same cosine kernel.",
        "λ = {lambdas}; SVM (C = {C}) は同じコサインカーネルで学習。",
    ),
    "rep.sum.setup.ono-sgd-figure1": (
        "{shuffles} shuffle(s) per learning-rate schedule; {n_train} training rows; test F "
        "read up to {epochs} epoch(s).",
        "学習率の決め方ごとにシャッフル {shuffles} 回; 学習データ {n_train} 行; テストの "
        "F 値は {epochs} エポックまで測定。",
    ),
    "rep.sum.close": (
        "{group}: {close} of {n} cells within {tol} point(s) of the paper; mean |ours − paper| "
        "{mean} points.",
        "{group}: {n} セル中 {close} セルが論文から {tol} ポイント以内; |本実装 − 論文| の平均 "
        "{mean} ポイント。",
    ),
    "rep.sum.gap": (
        "{group}: {n} cells with a paper value; mean |ours − paper| {mean}.",
        "{group}: 論文に値のあるセル {n} 個; |本実装 − 論文| の平均 {mean}。",
    ),
    "rep.sum.after_epochs": ("after {n} epoch(s)", "{n} エポック後"),
    "rep.sum.all_cells": ("all cells", "全セル"),
    "rep.sum.no_numbers": (
        "The paper prints no numbers for these cells (the paper column is empty): its claims "
        "are checked instead.",
        "論文にはこれらのセルの数値がありません (論文の列は空): 代わりに論文の主張を検証します。",
    ),
    "rep.sum.note.matsushima-digits": (
        "Digits is not the paper's data: scikit-learn's 8x8 handwritten digits (1,797 images "
        "of 64 pixels) ship with scikit-learn, so this runs without the corpora or the "
        "internet; the paper's nearest set is USPS (7,291 images of 16x16). The paper prints "
        "no number for digits: the paper column is empty and its claims are checked on digits.",
        "digits は論文のデータではありません: scikit-learn の 8x8 の手書き数字 (1,797 枚、"
        "64 画素) は scikit-learn に同梱されているため、コーパスやインターネットなしで実行"
        "できます。論文で最も近いのは USPS (16x16 の 7,291 枚) です。論文には digits の数値が"
        "ないため、論文の列は空で、論文の主張を digits で検証します。",
    ),
    "rep.sum.note.pcvm-lambda": (
        "The paper's corpus (Mainichi) is not public: livedoor pairs mirror its pairs by "
        "analogy, so its values are a reference, not a target; its claims are the trends.",
        "論文のコーパス (毎日新聞) は公開されていないため、livedoor の対で類推的に置き換えて"
        "います。論文の値は参考で、目標ではありません。主張は傾向についてのものです。",
    ),
    "rep.sum.claims": (
        "{n} claim(s) checked: {counts}.",
        "検証した主張 {n} 件: {counts}。",
    ),
    "rep.sum.count": ("{verdict} {n}", "{verdict} {n} 件"),
    "rep.sum.claim": (
        "{dataset}: {claim}: {verdict} ({evidence}).",
        "{dataset}: {claim} → {verdict} ({evidence})。",
    ),
    "rep.sum.claim_all": ("{claim}: {verdict} ({evidence}).", "{claim} → {verdict} ({evidence})。"),
    "rep.sum.ev.paper_ours": ("paper {paper}; ours {ours}", "論文 {paper}、本実装 {ours}"),
    "rep.sum.ev.datasets": (
        "on {k} of {n} datasets",
        "{n} 個中 {k} 個のデータセットで成立",
    ),
    "rep.sum.ev.pairs": ("on {k} of {n} pairs", "{n} 対中 {k} 対で成立"),
    "rep.sum.rule.derived": ("Eq. 20 as derived", "導出どおりの式 20"),
    "rep.sum.rule.printed": ("Eq. 20 as printed", "論文に印刷された式 20"),
    "rep.sum.pcvm.gamma": ("{rule}: γ falls as λ grows", "{rule}: λ が大きいほど γ が小さい"),
    "rep.sum.pcvm.weights": (
        "{rule}: the non-zero weights fall as λ grows",
        "{rule}: λ が大きいほど非零の重みが減る",
    ),
    "rep.sum.pcvm.within": (
        "{rule}: the accuracy moves at most {spread} points over λ",
        "{rule}: λ を変えても正解率の変化は {spread} ポイント以内",
    ),
    "rep.sum.pcvm.sparser": (
        "{rule}: at least {factor} times sparser than the SVM",
        "{rule}: SVM より {factor} 倍以上疎",
    ),
    "rep.sum.pcvm.gap": (
        "{rule}: accuracy below the SVM's by {lo} to {hi} points (the paper: {plo} to {phi}).",
        "{rule}: 正解率は SVM より {lo} から {hi} ポイント低い (論文: {plo} から {phi})。",
    ),
    "rep.sum.pcvm.ratio": (
        "{rule}: γ / √(k / 2λ) lies in [{lo}, {hi}] (k = non-zero weights): the learned γ "
        "only measures the model's size.",
        "{rule}: γ / √(k / 2λ) は [{lo}, {hi}] の範囲 (k = 非零の重みの数): 学習した γ は"
        "モデルの大きさを測っているだけです。",
    ),
    "rep.sum.sgd.one": (
        "per-feature minus global best F {mean} points; one shuffle: no test, tentative",
        "最良の F 値の差 (素性ごと − 全体) {mean} ポイント; シャッフル 1 回なので検定なし、暫定",
    ),
    "rep.sum.sgd.many": (
        "per-feature minus global best F {mean} ± {se} points over {n} shuffles",
        "最良の F 値の差 (素性ごと − 全体) {mean} ± {se} ポイント (シャッフル {n} 回)",
    ),
}
