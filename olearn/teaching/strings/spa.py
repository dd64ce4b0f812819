"""UI strings: SPA page (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "spa.title": ("One SPA update, step by step", "SPA の一回の更新をステップごとに"),
    "spa.intro": (
        "A small multiclass state (one weight vector per class) receives one example "
        "(x, y). Multiclass PA moves only the correct class and the best rival; the "
        "Support-Class PA (SPA; [[000]]) solves the whole "
        "problem: a margin of 1 over *every* wrong class. Walk through its sub-steps below.",
        "クラスごとに重みベクトルを持つ小さな多クラスの状態が、一つの例 (x, y) を受け取り"
        "ます。多クラス PA は正解クラスと最大の対抗クラスしか動かしませんが、サポート"
        "クラス PA (SPA; [[000]]) は *すべての* 不正解クラスに対して"
        "マージン 1 を課す問題を厳密に解きます。以下でその小ステップをたどります。",
    ),
    "spa.scenario": ("Scenario", "シナリオ"),
    "spa.variant": ("Rule", "更新則"),
    "spa.C": ("C (slack price)", "C (スラックの重み)"),
    "spa.substep": ("Sub-step", "小ステップ"),
    "spa.prev": ("◀ Previous", "◀ 前へ"),
    "spa.next": ("Next ▶", "次へ ▶"),
    "spa.classes": ("Classes K", "クラス数 K"),
    "spa.scenario.pa-failure": (
        "PA still misclassifies after its update",
        "PA は更新後も誤分類する",
    ),
    "spa.scenario.three-rivals": (
        "Three rivals above the correct class",
        "正解クラスより上に三つの対抗クラス",
    ),
    "spa.scenario.printed-I": (
        "The paper's printed SPA-I differs from the derived one",
        "論文に印刷された SPA-I が導出と異なる例",
    ),
    "spa.scenario.printed-II": (
        "The paper's printed SPA-II differs from the derived one",
        "論文に印刷された SPA-II が導出と異なる例",
    ),
    "spa.scenario.passive": (
        "Already correct with margin 1: a passive step",
        "すでにマージン 1 で正解: 受動的なステップ",
    ),
    "spa.scenario.random": (
        "Random small integer state (from the random seed)",
        "ランダムな小さい整数の状態 (シード指定)",
    ),
    "spa.scenario.playground": (
        "From the playground's current state",
        "プレイグラウンドの現在の状態から",
    ),
    "spa.playground_missing": (
        "Open the Playground first: this scenario takes its current state (the first SPA "
        "learner there, at its current t). Showing the PA-failure scenario meanwhile.",
        "先にプレイグラウンドを開いてください。このシナリオはその現在の状態 (最初の SPA "
        "系学習器の現在の t) を使います。代わりに PA 失敗のシナリオを表示しています。",
    ),
    "spa.state": ("The state: W (one row per class), x, y", "状態: W (クラスごとの行), x, y"),
    "spa.pa_beside": ("Multiclass PA on the same example", "同じ例に対する多クラス PA"),
    "spa.pa_text": (
        "PA takes the single constraint against the best rival **{rival}**: "
        "τ = {tau}. After its step the winner is class **{winner}** "
        "(correct class y = {y}): {verdict}.",
        "PA は最大の対抗クラス **{rival}** に対する一つの制約だけを扱います: τ = {tau}。"
        "更新後に最大スコアを持つのはクラス **{winner}** (正解 y = {y}): {verdict}。",
    ),
    "spa.pa_ok": ("correct", "正解"),
    "spa.pa_fail": (
        "still misclassified: the failure SPA fixes",
        "依然として誤分類: SPA が解決する失敗",
    ),
    "spa.pa_fail_both": (
        "still misclassified, and so is x after this rule's step: the slack "
        "price C is too small for either to reach margin 1",
        "依然として誤分類。この更新則でも同様: C が小さすぎてどちらもマージン 1 に届きません",
    ),
    "spa.qp_title": (
        "Closed form vs a generic QP solver (quadprog)",
        "閉形式と汎用 QP ソルバー (quadprog) の比較",
    ),
    "spa.qp_text": (
        "Largest difference in τ: {diff}; objective closed form {obj_cf}, solver {obj_qp}.",
        "τ の最大差: {diff}; 目的関数値 閉形式 {obj_cf}, ソルバー {obj_qp}。",
    ),
    "spa.cap_title": ("How C shapes the step", "C がステップをどう変えるか"),
    "spa.cap_fig_title": ("Each τ and their sum T against C", "C に対する各 τ とその和 T"),
    "spa.cap_binds": (
        "At C = {C} the cap binds: Σ τ = C < {T_hard} (the hard step's total); slack ξ = {xi}.",
        "C = {C} では上限が効いています: Σ τ = C < {T_hard} (ハードな更新の合計); "
        "スラック ξ = {xi}。",
    ),
    "spa.cap_free": (
        "At C = {C} the cap does not bind: Σ τ = {T} ≤ C, the hard SPA step.",
        "C = {C} では上限は効きません: Σ τ = {T} ≤ C, ハードな SPA と同じ更新。",
    ),
    "spa.cap_ii": (
        "SPA-II never caps: it shrinks every τ; Σ τ = {T} vs {T_hard} for hard "
        "SPA, slack ξ = {xi}.",
        "SPA-II は上限ではなく全ての τ を縮めます: Σ τ = {T} (ハード SPA では "
        "{T_hard}), スラック ξ = {xi}。",
    ),
    "spa.printed_title": (
        "The paper's printed Table 2 vs the derived form",
        "論文の表 2 (印刷された式) と導出した式",
    ),
    "spa.printed_same": (
        "On this instance the printed and the derived steps agree "
        "(pick a 'printed' scenario to see where they differ).",
        "この例では印刷された式と導出した式は一致します (違いを見るには "
        "'印刷' のシナリオを選んでください)。",
    ),
    "spa.printed_differs": (
        "They differ here: the printed step reaches objective {obj_p}, the derived one "
        "{obj_d} (the minimum of the stated problem, confirmed by the QP solver).",
        "ここでは異なります: 印刷された式の目的関数値は {obj_p}、導出した式は {obj_d} "
        "(問題の最小値であり QP ソルバーでも確認)。",
    ),
    "spa.printed_hard": (
        "Hard SPA's printed form (Table 1) is correct; the misprints are in SPA-I and SPA-II.",
        "ハード SPA の印刷された式 (表 1) は正しく、誤植は SPA-I と SPA-II にあります。",
    ),
    # sub-steps
    "spa.sub.scores.title": ("Scores", "スコア"),
    "spa.sub.scores.text": (
        "Every class scores the example: s_u = w_u · x. The correct class is y = {y} with "
        "s_y = {sy}; the best wrong class is {rival} with {s_rival}.",
        "各クラスが例にスコアを付けます: s_u = w_u · x。正解クラスは y = {y} で s_y = {sy}、"
        "最大の不正解クラスは {rival} で {s_rival}。",
    ),
    "spa.sub.margins.title": ("Margins and loss", "マージンと損失"),
    "spa.sub.margins.text": (
        "Margins m_u = s_y − s_u for the wrong classes. SPA wants every m_u ≥ 1; "
        "{n_viol} of them are below 1, so the loss max_u [1 − m_u]₊ is {loss}.",
        "不正解クラスのマージン m_u = s_y − s_u。SPA はすべての m_u ≥ 1 を求めます。"
        "1 未満が {n_viol} 個あり、損失 max_u [1 − m_u]₊ は {loss} です。",
    ),
    "spa.sub.passive.title": ("Passive", "受動的 (更新なし)"),
    "spa.sub.passive.text": (
        "The loss is zero: every wrong class already has margin ≥ 1. "
        "SPA (and PA) leave the weights unchanged.",
        "損失は 0 です: すべての不正解クラスのマージンがすでに 1 以上。"
        "SPA も PA も重みを変えません。",
    ),
    "spa.sub.Q.title": ("Q values", "Q 値"),
    "spa.sub.Q.text": (
        "Q_u = (1 − m_u) / n, with n = ‖x‖² = {n} (the squared length of x, used from here "
        "on), is the step class u would need if it were alone. Only classes with Q_u > 0 can "
        "become support classes: {positive}.",
        "Q_u = (1 − m_u) / n (n = ‖x‖² = {n} は x の長さの二乗で、以後この記号を使います) "
        "は、クラス u だけを考えたときに必要なステップです。Q_u > 0 のクラスだけが"
        "サポートクラスになり得ます: {positive}。",
    ),
    "spa.sub.sorted.title": ("Sorted", "降順に並べる"),
    "spa.sub.sorted.text": (
        "Sort Q in descending order: {order}. The support classes are a "
        "prefix of this order (Lemma, Eq. 8).",
        "Q を降順に並べます: {order}。サポートクラスはこの順序の先頭部分です (補題, 式 8)。",
    ),
    "spa.sub.test.title": ("Support test, k = {k}", "サポートクラス判定, k = {k}"),
    "spa.sub.test.text": (
        "Class {cls} is number k = {k} in the order: Q_k = {Q}. The Q's admitted before it sum to "
        "{running}, so the threshold is {threshold}. Q_k {cmp} threshold: class {cls} {verdict}.",
        "クラス {cls} は順序の k = {k} 番目: Q_k = {Q}。それ以前に採用された Q の和は {running} "
        "なので、しきい値は {threshold}。Q_k {cmp} しきい値: クラス {cls} は{verdict}。",
    ),
    "spa.sub.test.in": ("is a support class", "サポートクラスです"),
    "spa.sub.test.out": ("is not, and the search stops", "サポートクラスではなく、探索は終了"),
    "spa.sub.captest.title": (
        "Second search (cap Σ τ = C), k = {k}",
        "二度目の探索 (上限 Σ τ = C), k = {k}",
    ),
    "spa.sub.cap.title": ("SPA-I: the cap binds", "SPA-I: 上限が効く"),
    "spa.sub.cap.text": (
        "The search above (the hard SPA test) gives S = {S} and a total step "
        "Σ τ = θ = {T_hard}. SPA-I pays C ξ for a slack ξ ≥ 0; setting the derivative in ξ to "
        "zero gives Σ τ ≤ C. Here {T_hard} > C = {C}, so the cap binds: Σ τ = C exactly, the "
        "support classes end at margin 1 − ξ, and the set S must be searched **again** with "
        "the cap test (second formula). The first class is always in; the ticks restart.",
        "上の探索 (ハード SPA の判定) では S = {S}、ステップの合計 Σ τ = θ = {T_hard} です。"
        "SPA-I はスラック ξ ≥ 0 に C ξ を払うので、ξ で微分して 0 とおくと Σ τ ≤ C が"
        "得られます。ここでは {T_hard} > C = {C} なので上限が効き、Σ τ = C ちょうど、"
        "サポートクラスのマージンは 1 − ξ になり、S を上限付きの判定 (二つ目の式) で"
        "**もう一度** 探索します。最初のクラスは必ず採用され、印は最初からやり直します。",
    ),
    "spa.sub.nocap.title": ("SPA-I: the cap does not bind", "SPA-I: 上限は効かない"),
    "spa.sub.nocap.text": (
        "SPA-I pays C ξ for a slack ξ ≥ 0, which caps the total step: Σ τ ≤ C. The hard step "
        "found above has Σ τ = θ = {T_hard} ≤ C = {C}: it is already SPA-I's step (ξ = 0) "
        "and there is no second search.",
        "SPA-I はスラック ξ ≥ 0 に C ξ を払うので、ステップの合計に上限 Σ τ ≤ C が"
        "かかります。上で求めたハードな更新は Σ τ = θ = {T_hard} ≤ C = {C} なので、"
        "そのまま SPA-I の更新です (ξ = 0)。二度目の探索はありません。",
    ),
    "spa.sub.tau.title": ("Threshold θ and the steps τ", "しきい値 θ とステップ τ"),
    "spa.sub.tau.text": (
        "Support classes S = {S}. The threshold is θ = {theta}; each support class gets "
        "τ_u = Q_u − θ, the others τ_u = 0. Total T = Σ τ = {T}.{extra}",
        "サポートクラス S = {S}。しきい値は θ = {theta}。各サポートクラスは "
        "τ_u = Q_u − θ、それ以外は τ_u = 0。合計 T = Σ τ = {T}。{extra}",
    ),
    "spa.sub.tau.capextra": (
        " The hard step would need T = {T_hard} > C = {C}: the cap binds "
        "and the slack is ξ = {xi}.",
        " ハードな更新では T = {T_hard} > C = {C} が必要なので上限が効き、スラックは ξ = {xi}。",
    ),
    "spa.sub.tau.iiextra": (
        " SPA-II pays C ξ² for the slack: ξ = T / 2C = {xi}.",
        " SPA-II はスラックに C ξ² を払います: ξ = T / 2C = {xi}。",
    ),
    "spa.sub.update.title": ("The update", "更新"),
    "spa.sub.update.text": (
        "w_y += T x with T = {T}; w_u −= τ_u x for every support class. Every weight moves "
        "along x (Eq. 4); classes outside S do not move.",
        "w_y += T x (T = {T})、各サポートクラスは w_u −= τ_u x。すべての重みは x の方向に"
        "動きます (式 4)。S の外のクラスは動きません。",
    ),
    "spa.sub.after.title": ("New scores", "新しいスコア"),
    "spa.sub.after.text": (
        "New scores: the correct class {y} now scores {sy}. Smallest margin over the wrong "
        "classes: {min_margin} (SPA's constraint: ≥ {required}). Correctly classified: "
        "{correct}.",
        "新しいスコア: 正解クラス {y} のスコアは {sy}。不正解クラスに対する最小マージン: "
        "{min_margin} (SPA の制約: ≥ {required})。正しく分類: {correct}。",
    ),
    # figure labels
    "fig.plane": ("Weights w<sub>u</sub>, example x", "重み w<sub>u</sub> と例 x"),
    "fig.scores": (
        "Scores s<sub>u</sub> = w<sub>u</sub> · x",
        "スコア s<sub>u</sub> = w<sub>u</sub> · x",
    ),
    "fig.margins": (
        "Margins m<sub>u</sub> = s<sub>y</sub> − s<sub>u</sub>",
        "マージン m<sub>u</sub> = s<sub>y</sub> − s<sub>u</sub>",
    ),
    "fig.Q": (
        "Q<sub>u</sub> = (1 − m<sub>u</sub>) / ‖x‖²",
        "Q<sub>u</sub> = (1 − m<sub>u</sub>) / ‖x‖²",
    ),
    "fig.tau": (
        "τ<sub>u</sub> = Q<sub>u</sub> − θ (solid), θ (faint)",
        "τ<sub>u</sub> = Q<sub>u</sub> − θ (濃) と θ (淡)",
    ),
    "fig.before": ("before", "更新前"),
    "fig.after": ("after", "更新後"),
    "fig.band": ("margin-1 zone below s<sub>y</sub>", "s<sub>y</sub> の下のマージン 1 の帯"),
    "fig.threshold": ("threshold", "しきい値"),
    "fig.C": ("C", "C"),
    "fig.tau_axis": ("τ", "τ"),
    # formulas (printed vs derived) and table headers
    "spa.f.test": ("Support test (stop when it holds)", "サポートクラス判定 (成り立てば終了)"),
    "spa.f.step": ("Step size", "ステップサイズ"),
    "spa.f.cases": (
        "Derived SPA-I: case (a) when the hard step's total Σ τ is at most C (then it is "
        "optimal and ξ = 0); case (b) otherwise (then Σ τ = C exactly).",
        "導出した SPA-I: 場合 (a) はハードな更新の合計 Σ τ が C 以下のとき (そのまま最適で "
        "ξ = 0)、場合 (b) はそれ以外 (Σ τ = C ちょうど)。",
    ),
    "spa.f.printed": ("Printed (Table {table})", "印刷された式 (表 {table})"),
    "spa.f.derived": ("Derived from the stated problem", "問題から導出した式"),
    "spa.f.note.I": (
        "SPA-I: the printed test has the C term with the wrong sign and scale (−C/k instead "
        "of +C/(k−1)), and the printed step is only case (b): with one support class it "
        "always gives τ = C, even when the hard step Q/2 is below C.",
        "SPA-I: 印刷された判定式は C の項の符号と大きさが誤り (+C/(k−1) ではなく −C/k)。"
        "印刷されたステップは場合 (b) だけで、サポートクラスが一つなら、ハードな更新 Q/2 が "
        "C より小さいときでも常に τ = C を与えます。",
    ),
    "spa.f.note.II": (
        "SPA-II: the printed test has 1/2C where the derivation has (k−1)/2C in the "
        "denominator; they agree for k ≤ 2 and differ from the third class on. The printed "
        "step size is right.",
        "SPA-II: 印刷された判定式の分母は 1/2C ですが、導出では (k−1)/2C です。k ≤ 2 では"
        "一致し、三つ目のクラスから異なります。印刷されたステップサイズは正しい式です。",
    ),
    "spa.f.note.None": (
        "Hard SPA: Table 1 and Eq. (8)/(9) are right.",
        "ハード SPA: 表 1 と式 (8)(9) は正しい式です。",
    ),
    "spa.f.n": ("n = ‖x‖² throughout.", "n = ‖x‖² とします。"),
    "spa.col.class": ("class", "クラス"),
    "spa.col.s": ("s_u", "s_u"),
    "spa.col.m": ("m_u", "m_u"),
    "spa.col.Q": ("Q_u", "Q_u"),
    "spa.col.rank": ("rank", "順位"),
    "spa.col.admitted": ("admitted", "採用"),
    "spa.col.tau": ("τ_u", "τ_u"),
    "spa.col.coef": ("change of w_u (× x)", "w_u の変化 (× x)"),
    "spa.col.s_after": ("s_u after", "更新後の s_u"),
    "spa.col.m_after": ("m_u after", "更新後の m_u"),
    "spa.col.pa_after": ("s_u after PA", "PA 後の s_u"),
    "spa.col.spa_after": ("s_u after SPA", "SPA 後の s_u"),
    "spa.col.tau_cf": ("τ closed form", "τ 閉形式"),
    "spa.col.tau_qp": ("τ quadprog", "τ quadprog"),
    "spa.col.diff": ("|difference|", "|差|"),
    "spa.col.tau_derived": ("τ derived", "τ 導出"),
    "spa.col.tau_printed": ("τ printed", "τ 印刷"),
    "spa.col.m_derived": ("m_u after (derived)", "更新後の m_u (導出)"),
    "spa.col.m_printed": ("m_u after (printed)", "更新後の m_u (印刷)"),
    "spa.col.row": ("row", "行"),
    "spa.col.bias": ("bias", "バイアス"),
    "spa.random_seed": ("Random seed", "乱数シード"),
    "spa.random_seed.help": (
        "Picks another instance of the scenario (the random generator's seed, not a paper).",
        "シナリオの別の例を選びます (乱数生成器のシードであり、論文番号ではありません)。",
    ),
    "spa.step_of": ("step {i} of {n}", "ステップ {i} / {n}"),
    "spa.formulas": ("The rule's formulas: printed vs derived", "更新則の式: 印刷と導出"),
    "spa.table": ("Numbers per class", "クラスごとの数値"),
    "fig.feature1": ("feature 1", "特徴 1"),
    "fig.feature2": ("feature 2", "特徴 2"),
}
