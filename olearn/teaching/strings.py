"""The one table of UI strings, English and Japanese (the seeds' language).

Every visible sentence of the app comes from :data:`STRINGS` through :func:`t`; a test checks
that each entry has both languages with the same ``{placeholders}``.

>>> t("lang.name", "ja")
'日本語'
>>> t("spa.sub.scores.title", "en")
'1. Scores'
"""

from __future__ import annotations

LANGS = ("en", "ja")

# key -> (English, Japanese)
STRINGS: dict[str, tuple[str, str]] = {
    # --- frame -------------------------------------------------------------------------
    "lang.name": ("English", "日本語"),
    "lang.label": ("Language / 言語", "Language / 言語"),
    "app.title": (
        "olearn: online learning, one update at a time",
        "olearn: 逐次学習を一回の更新ごとに",
    ),
    "nav.start": ("Start", "はじめに"),
    "nav.inside": ("Inside one update", "一回の更新の中身"),
    "nav.play": ("Watch it learn", "学習を見る"),
    "nav.data": ("Real data", "実データ"),
    "page.home": ("Home", "ホーム"),
    "page.playground": ("Playground (2-D)", "プレイグラウンド (2次元)"),
    "page.spa": ("One SPA update", "SPA の一回の更新"),
    "page.cw": ("Confidence-weighted", "信頼度重み付き (CW)"),
    "page.cs_svm": ("Crammer-Singer SVM", "Crammer-Singer SVM"),
    "page.pcvm": ("PCVM", "PCVM"),
    "page.sgd": ("SGD-SVM", "SGD-SVM"),
    "page.compare": ("Compare on real data", "実データで比較"),
    "page.reproduce": ("Reproduce the papers", "論文の再現"),
    "ui.share": ("Link to this view (seed included)", "この画面へのリンク (シード込み)"),
    "ui.share.help": (
        "The address bar's URL reproduces this screen, seed included. Add "
        "`&hide=all` "
        "(or `&hide=key1,key2`) to hide the controls for a lesson.",
        "アドレスバーの URL でこの画面を再現できます。授業用に `&hide=all` "
        "(または `&hide=key1,key2`) を付けると操作部品を隠せます。",
    ),
    "ui.error": ("Something went wrong: {message}", "エラーが発生しました: {message}"),
    "ui.bad_param": ("Invalid parameter: {message}", "パラメータが不正です: {message}"),
    "ui.data_missing": (
        "Data not available on this machine: {message}",
        "このマシンではデータを利用できません: {message}",
    ),
    "ui.download_csv": ("Download CSV", "CSV をダウンロード"),
    "ui.png_hint": (
        "Every figure downloads as PNG from its toolbar (camera icon).",
        "図はツールバーのカメラアイコンから PNG で保存できます。",
    ),
    "ui.seed": ("Seed", "乱数シード"),
    "ui.class": ("class", "クラス"),
    "ui.yes": ("yes", "はい"),
    "ui.no": ("no", "いいえ"),
    # --- SPA page ----------------------------------------------------------------------
    "spa.title": ("One SPA update, step by step", "SPA の一回の更新をステップごとに"),
    "spa.intro": (
        "A small multiclass state (one weight vector per class) receives one example "
        "(x, y). Multiclass PA moves only the correct class and the best rival; the "
        "Support-Class PA (SPA, seed 000) solves the whole problem: a margin of 1 over "
        "*every* wrong class. Walk through its sub-steps below.",
        "クラスごとに重みベクトルを持つ小さな多クラスの状態が、一つの例 (x, y) を受け取り"
        "ます。多クラス PA は正解クラスと最大の対抗クラスしか動かしませんが、サポート"
        "クラス PA (SPA, seed 000) は *すべての* 不正解クラスに対してマージン 1 を課す問題を"
        "厳密に解きます。以下でその小ステップをたどります。",
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
        "Seed's printed SPA-I differs from the derived one",
        "論文に印刷された SPA-I が導出と異なる例",
    ),
    "spa.scenario.printed-II": (
        "Seed's printed SPA-II differs from the derived one",
        "論文に印刷された SPA-II が導出と異なる例",
    ),
    "spa.scenario.passive": (
        "Already correct with margin 1: a passive step",
        "すでにマージン 1 で正解: 受動的なステップ",
    ),
    "spa.scenario.random": (
        "Random small integer state (seeded)",
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
        "The seed's printed Table 2 vs the derived form",
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
    "spa.sub.scores.title": ("1. Scores", "1. スコア"),
    "spa.sub.scores.text": (
        "Every class scores the example: s_u = w_u · x. The correct class is y = {y} with "
        "s_y = {sy}; the best wrong class is {rival} with {s_rival}. ‖x‖² = {n}.",
        "各クラスが例にスコアを付けます: s_u = w_u · x。正解クラスは y = {y} で s_y = {sy}、"
        "最大の不正解クラスは {rival} で {s_rival}。‖x‖² = {n}。",
    ),
    "spa.sub.margins.title": ("2. Margins and loss", "2. マージンと損失"),
    "spa.sub.margins.text": (
        "Margins m_u = s_y − s_u for the wrong classes. SPA wants every m_u ≥ 1; "
        "{n_viol} of them are below 1, so the loss max_u [1 − m_u]₊ is {loss}.",
        "不正解クラスのマージン m_u = s_y − s_u。SPA はすべての m_u ≥ 1 を求めます。"
        "1 未満が {n_viol} 個あり、損失 max_u [1 − m_u]₊ は {loss} です。",
    ),
    "spa.sub.passive.title": ("3. Passive", "3. 受動的 (更新なし)"),
    "spa.sub.passive.text": (
        "The loss is zero: every wrong class already has margin ≥ 1. "
        "SPA (and PA) leave the weights unchanged.",
        "損失は 0 です: すべての不正解クラスのマージンがすでに 1 以上。"
        "SPA も PA も重みを変えません。",
    ),
    "spa.sub.Q.title": ("3. Q values", "3. Q 値"),
    "spa.sub.Q.text": (
        "Q_u = (1 − m_u) / ‖x‖² is the step class u would need if it were alone. Only "
        "classes with Q_u > 0 can become support classes: {positive}.",
        "Q_u = (1 − m_u) / ‖x‖² は、クラス u だけを考えたときに必要なステップです。"
        "Q_u > 0 のクラスだけがサポートクラスになり得ます: {positive}。",
    ),
    "spa.sub.sorted.title": ("4. Sorted", "4. 降順に並べる"),
    "spa.sub.sorted.text": (
        "Sort Q in descending order: {order}. The support classes are a "
        "prefix of this order (Lemma, Eq. 8).",
        "Q を降順に並べます: {order}。サポートクラスはこの順序の先頭部分です (補題, 式 8)。",
    ),
    "spa.sub.test.title": ("5.{k} Support test, k = {k}", "5.{k} サポートクラス判定, k = {k}"),
    "spa.sub.test.text": (
        "Class {cls}: Q_k = {Q}. Sum of the Q's admitted before it: {running}. "
        "Threshold {formula} = {threshold}. Q_k {cmp} threshold, so class {cls} {verdict}.",
        "クラス {cls}: Q_k = {Q}。それ以前に採用された Q の和: {running}。"
        "しきい値 {formula} = {threshold}。Q_k {cmp} しきい値なので、クラス {cls} は"
        "{verdict}。",
    ),
    "spa.sub.test.in": ("is a support class", "サポートクラスです"),
    "spa.sub.test.out": ("is not, and the search stops", "サポートクラスではなく、探索は終了"),
    "spa.sub.test.cap": (
        " (SPA-I, the cap Σ τ = C binds: second search)",
        " (SPA-I, 上限 Σ τ = C が効くので二度目の探索)",
    ),
    "spa.sub.test.last": (
        "Every class with Q > 0 was admitted.",
        "Q > 0 のクラスはすべて採用されました。",
    ),
    "spa.sub.tau.title": ("6. Threshold θ and the steps τ", "6. しきい値 θ とステップ τ"),
    "spa.sub.tau.text": (
        "Support classes S = {S}. θ = {theta_formula} = {theta}; each support class gets "
        "τ_u = Q_u − θ, the others τ_u = 0. Total T = Σ τ = {T}.{extra}",
        "サポートクラス S = {S}。θ = {theta_formula} = {theta}。各サポートクラスは "
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
    "spa.sub.update.title": ("7. The update", "7. 更新"),
    "spa.sub.update.text": (
        "w_y += T x with T = {T}; w_u −= τ_u x for every support class. Every weight moves "
        "along x (Eq. 4); classes outside S do not move.",
        "w_y += T x (T = {T})、各サポートクラスは w_u −= τ_u x。すべての重みは x の方向に"
        "動きます (式 4)。S の外のクラスは動きません。",
    ),
    "spa.sub.after.title": ("8. New scores", "8. 新しいスコア"),
    "spa.sub.after.text": (
        "New scores: the correct class {y} now scores {sy}. Smallest margin over the wrong "
        "classes: {min_margin} (SPA's constraint: ≥ {required}). Correctly classified: "
        "{correct}.",
        "新しいスコア: 正解クラス {y} のスコアは {sy}。不正解クラスに対する最小マージン: "
        "{min_margin} (SPA の制約: ≥ {required})。正しく分類: {correct}。",
    ),
    # figure labels
    "fig.plane": ("Plane: weights w_u, example x, regions", "平面: 重み w_u, 例 x, 決定領域"),
    "fig.scores": ("Scores s_u = w_u · x", "スコア s_u = w_u · x"),
    "fig.margins": ("Margins m_u = s_y − s_u", "マージン m_u = s_y − s_u"),
    "fig.Q": ("Q_u = (1 − m_u) / ‖x‖²", "Q_u = (1 − m_u) / ‖x‖²"),
    "fig.tau": ("τ_u = Q_u − θ (solid) over θ (faint)", "τ_u = Q_u − θ (濃) と θ (淡)"),
    "fig.before": ("before", "更新前"),
    "fig.after": ("after", "更新後"),
    "fig.band": ("margin-1 zone below s_y", "s_y の下のマージン 1 の帯"),
    "fig.threshold": ("threshold", "しきい値"),
    "fig.C": ("C", "C"),
    "fig.tau_axis": ("τ", "τ"),
    # --- playground ------------------------------------------------------------------
    "play.title": (
        "Playground: watch online learners on a 2-D stream",
        "プレイグラウンド: 2次元のデータ列で逐次学習を見る",
    ),
    "play.intro": (
        "Up to four learners see the same stream, one example at a time. Rewind to any t with "
        "the slider; the star is the example about to arrive, crosses mark the mistakes made "
        "so far (the prediction before each update), the grey band is where the two best "
        "classes score within 1 of each other (the margin band).",
        "最大四つの学習器が同じデータ列を一つずつ受け取ります。スライダーで任意の t に"
        "戻れます。星は次に届く例、× はこれまでの誤り (更新前の予測)、灰色の帯は上位二つの"
        "クラスのスコア差が 1 未満の領域 (マージンの帯) です。",
    ),
    "play.data": ("Data", "データ"),
    "play.kind": ("Toy dataset", "トイデータ"),
    "play.kind.blobs": ("Gaussian blobs", "ガウス分布の塊"),
    "play.kind.separable": ("Separable sectors", "線形分離可能な扇形"),
    "play.kind.xor": ("XOR (binary)", "XOR (2値)"),
    "play.kind.moons": ("Two moons (binary)", "二つの月 (2値)"),
    "play.kind.drift": ("Drifting sectors", "回転する扇形 (概念ドリフト)"),
    "play.kind.placed": ("Points I place", "自分で置いた点"),
    "play.n": ("Examples n", "例の数 n"),
    "play.K": ("Classes K", "クラス数 K"),
    "play.noise": ("Label noise", "ラベルノイズ"),
    "play.algos": ("Learners (up to four)", "学習器 (最大四つ)"),
    "play.C": ("C (PA-I/II, SPA-I/II, SCW)", "C (PA-I/II, SPA-I/II, SCW)"),
    "play.bias": ("Bias feature", "バイアス項"),
    "play.band": ("Margin band", "マージンの帯"),
    "play.t": ("Time t (examples seen)", "時刻 t (受け取った例の数)"),
    "play.play": ("Play", "再生"),
    "play.pause": ("Pause", "一時停止"),
    "play.step": ("Step", "1ステップ"),
    "play.back": ("Back", "戻る"),
    "play.rewind": ("Rewind", "最初へ"),
    "play.speed": ("Speed", "速さ"),
    "play.mistakes": ("mistakes", "回の誤り"),
    "play.cum_mistakes": ("Cumulative mistakes", "累積誤り数"),
    "play.weight_space": (
        "Weight space: class means and covariance ellipses (1σ)",
        "重み空間: クラスの平均と共分散の楕円 (1σ)",
    ),
    "play.cw_hint": (
        "Dotted brown contours: the score's standard deviation √(zᵀΣz) at each "
        "point z, the learner's uncertainty in input space.",
        "茶色の点線: 各点 z におけるスコアの標準偏差 √(zᵀΣz)、入力空間での学習器の不確かさ。",
    ),
    "play.points": (
        "Your points (edit, add rows; class 0..11)",
        "あなたの点 (編集・行の追加; クラスは 0..11)",
    ),
    "play.place_class": ("Class of the next point", "次に置く点のクラス"),
    "play.place_title": ("Click to place a point", "クリックして点を置く"),
    "play.to_spa": ("Open this state in the SPA step-through", "この状態を SPA の小ステップで開く"),
    "play.spa_learner": ("Learner for the step-through", "小ステップで見る学習器"),
    "play.need_algo": ("Choose at least one learner.", "学習器を一つ以上選んでください。"),
    # --- home ------------------------------------------------------------------------
    "home.title": (
        "olearn: online linear classification, exact and traced",
        "olearn: 厳密でトレース可能な逐次線形分類",
    ),
    "home.intro": (
        "Every algorithm here exists twice: a readable update rule that records what it did, "
        "and a fast compiled kernel that equals it. This app shows the inside of the updates: "
        "pick a page below, or follow the family map.",
        "ここでのアルゴリズムはすべて二通りに実装されています: 何をしたかを記録する読みやすい"
        "更新則と、それに一致する高速なコンパイル済みカーネルです。このアプリは更新の中身を"
        "見せます。下のページを選ぶか、系統図をたどってください。",
    ),
    "home.pages": ("What each page teaches", "各ページで学べること"),
    "home.family": ("The family map", "アルゴリズムの系統図"),
    "home.family_caption": (
        "Arrows: the rule on the right generalises the one on the left (the label says how). "
        "One SPA-I step solves exactly one sub-problem of the Crammer-Singer SVM's dual. "
        "PCVM and SGD-SVM are batch references.",
        "矢印: 右の更新則が左を一般化します (ラベルはその方法)。SPA-I の一回の更新は "
        "Crammer-Singer SVM の双対問題の部分問題を一つ厳密に解きます。PCVM と SGD-SVM は"
        "バッチ学習の比較対象です。",
    ),
    "home.datasets": ("Datasets", "データセット"),
    "home.datasets_caption": (
        "Toys and digits are embedded; the real corpora are read from $OLEARN_DATA (or "
        "downloaded on first use). 'available' says whether they are on this machine.",
        "トイデータと digits は同梱。実データは $OLEARN_DATA から読み込みます (初回使用時に"
        "ダウンロード)。'available' はこのマシンにあるかどうかです。",
    ),
    "home.desc.playground": (
        "Up to four learners on the same 2-D stream; rewind to any t, "
        "watch the lines, regions, margin band and mistakes.",
        "同じ 2次元のデータ列で最大四つの学習器。任意の t に戻り、境界線・"
        "領域・マージン帯・誤りを見る。",
    ),
    "home.desc.spa": (
        "The signature page: one SPA update sub-step by sub-step, PA beside it, "
        "a QP solver as referee, the seed's misprints.",
        "看板ページ: SPA の一回の更新を小ステップごとに。PA との比較、QP "
        "ソルバーによる検証、論文の誤植。",
    ),
    "home.desc.cw": (
        "One CW / AROW / SCW update: the Gaussian over weights before and after, "
        "α, β and the probability constraint.",
        "CW / AROW / SCW の一回の更新: 重みのガウス分布の前後、α, β と確率制約。",
    ),
    "home.desc.cs_svm": (
        "The Crammer-Singer SVM solved by decomposition, step by step, "
        "against LIBLINEAR's optimum.",
        "Crammer-Singer SVM を分解法で一歩ずつ解き、LIBLINEAR の最適解と比較。",
    ),
    "home.desc.pcvm": (
        "PCVM's EM iterations: the noise precision γ, the weights switched off, "
        "the boundary on 2-D data.",
        "PCVM の EM 反復: ノイズ精度 γ、0 になる重み、2次元データ上の境界。",
    ),
    "home.desc.sgd": (
        "SGD-SVM with one global learning rate vs one per feature.",
        "SGD-SVM: 全体で一つの学習率と素性ごとの学習率。",
    ),
    "home.desc.compare": (
        "Compare algorithms on real data (or your upload) with the papers' "
        "protocol; download the table.",
        "実データ (またはアップロード) で論文の手順によりアルゴリズムを比較。表をダウンロード。",
    ),
    "home.desc.reproduce": (
        "Each paper's table recomputed beside the printed one.",
        "各論文の表を再計算し、印刷された値と並べる。",
    ),
    # --- compare ---------------------------------------------------------------------
    "cmp.title": ("Compare on real data", "実データで比較"),
    "cmp.intro": (
        "The protocol of seed 000: K-fold cross-validation, C tuned on one randomly chosen "
        "fold, error averaged over the folds. Embedded data run at once; the real corpora "
        "need $OLEARN_DATA. Results are cached: the same settings come back instantly.",
        "seed 000 の手順: K 分割交差検証、ランダムに選んだ一つの分割で C を調整、誤り率は"
        "分割の平均。同梱データはすぐに実行でき、実コーパスには $OLEARN_DATA が必要です。"
        "結果はキャッシュされ、同じ設定ならすぐに表示されます。",
    ),
    "cmp.source": ("Data", "データ"),
    "cmp.source.registered": ("A registered dataset", "登録済みデータセット"),
    "cmp.source.upload": (
        "Upload my own (svmlight / CSV)",
        "自分のデータをアップロード (svmlight / CSV)",
    ),
    "cmp.dataset": ("Dataset", "データセット"),
    "cmp.upload": (
        "Upload a file (svmlight or CSV, at most 50 MB; label column 'label' or last)",
        "ファイルをアップロード (svmlight または CSV, 50 MB まで; ラベル列は 'label' "
        "または最後の列)",
    ),
    "cmp.need_upload": (
        "Upload a file to compare on it.",
        "比較するファイルをアップロードしてください。",
    ),
    "cmp.algorithms": ("Algorithms", "アルゴリズム"),
    "cmp.C_grid": ("C grid", "C の候補"),
    "cmp.epochs": ("Epochs", "エポック数"),
    "cmp.folds": ("Folds", "分割数"),
    "cmp.max_samples": ("Subsample (0 = all)", "サブサンプル (0 = 全部)"),
    "cmp.scale": ("Row scaling", "行の正規化"),
    "cmp.scale.none": ("none (the paper's features)", "なし (論文の素性)"),
    "cmp.scale.l2": ("unit length (L2)", "単位長 (L2)"),
    "cmp.run": ("Run the comparison", "比較を実行"),
    "cmp.press_run": (
        "Choose the settings and press the button.",
        "設定を選んでボタンを押してください。",
    ),
    "cmp.card": ("Dataset card", "データセットカード"),
    "cmp.errors": ("Test error on {dataset}", "{dataset} でのテスト誤り率"),
    "cmp.ours": ("ours", "本実装"),
    "cmp.paper": ("paper (seed 000 Table 4)", "論文 (seed 000 表 4)"),
    "cmp.error_axis": ("error (%)", "誤り率 (%)"),
    "cmp.curves": (
        "Online mistake rate (progressive validation)",
        "逐次の誤り率 (progressive validation)",
    ),
    "cmp.t_axis": ("examples seen", "受け取った例の数"),
    "cmp.rate_axis": ("cumulative mistakes (%)", "累積誤り率 (%)"),
    "cmp.times": ("Training time per fold", "分割あたりの学習時間"),
    "cmp.time_axis": ("seconds (log)", "秒 (対数)"),
    "cmp.protocol": ("The protocol's choices", "手順の選択"),
    "cmp.progress": ("Running: {message}", "実行中: {message}"),
    "cmp.unavailable": (
        "This dataset is not on this machine: set OLEARN_DATA to the folder "
        "holding its archives (or allow the download). Details: {message}",
        "このデータセットはこのマシンにありません: アーカイブのあるフォルダを "
        "OLEARN_DATA に設定してください (またはダウンロードを許可)。"
        "詳細: {message}",
    ),
    # --- reproduce -------------------------------------------------------------------
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
    # --- confidence-weighted ---------------------------------------------------------
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
    # --- Crammer-Singer ----------------------------------------------------------------
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
    "cs.step": ("Sub-problem", "部分問題"),
    "cs.primal": ("primal P(W)", "主問題 P(W)"),
    "cs.dual": ("dual D(α)", "双対 D(α)"),
    "cs.liblinear": ("LIBLINEAR's optimum", "LIBLINEAR の最適値"),
    "cs.sweep": ("sweep over the examples", "全例の一巡"),
    "cs.objective": ("objective", "目的関数"),
    "cs.gap_title": ("The duality gap closes", "双対ギャップが閉じる"),
    "cs.plane_title": (
        "After sub-problem {s} (example {p} circled)",
        "部分問題 {s} の後 (例 {p} を丸で表示)",
    ),
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
    # --- PCVM --------------------------------------------------------------------------
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
    # --- SGD ---------------------------------------------------------------------------
    "sgd.title": (
        "SGD-SVM: one global learning rate or one per feature",
        "SGD-SVM: 全体で一つの学習率か素性ごとの学習率か",
    ),
    "sgd.intro": (
        "Bottou's SGD uses η_t = 1/(λ(t + t₀)) for every weight. Seed 004 gives each feature "
        "its own clock t_j (the examples in which it appeared), so a rare word keeps a large "
        "rate when it finally shows up. The data here are word-like: a few frequent features, "
        "many rare ones.",
        "Bottou の SGD は全ての重みに η_t = 1/(λ(t + t₀)) を使います。seed 004 は素性ごとに"
        "時計 t_j (その素性が現れた例の数) を持たせ、稀な単語が現れたときに大きな学習率を"
        "保ちます。ここでのデータは単語のように、少数の頻出素性と多数の稀な素性からなります。",
    ),
    "sgd.lam": ("λ (regularisation)", "λ (正則化)"),
    "sgd.epochs": ("Epochs", "エポック数"),
    "sgd.global": ("global rate", "全体の学習率"),
    "sgd.per-feature": ("per-feature rates", "素性ごとの学習率"),
    "sgd.rate": ("learning rate used", "使われた学習率"),
    "sgd.seconds": ("training time (s)", "学習時間 (秒)"),
    "sgd.f1": ("F-measure (held out)", "F 値 (評価データ)"),
    "sgd.f1_title": ("F-measure vs training time", "学習時間に対する F 値"),
    "sgd.objective": ("The objective E(w, b) during training", "学習中の目的関数 E(w, b)"),
    "sgd.rates": ("Learning rates used", "使われた学習率"),
    "sgd.rates_caption": (
        "x0 is in half of the examples (solid), x150 in 2 % (dotted): with "
        "per-feature clocks the rare feature keeps a large rate.",
        "x0 は例の半分に現れ (実線)、x150 は 2 % (点線): 素性ごとの時計では"
        "稀な素性が大きな学習率を保ちます。",
    ),
}


def t(key: str, lang: str = "en", **fmt) -> str:
    """The string ``key`` in ``lang`` ("en" or "ja"), formatted with ``fmt``.

    Unknown languages fall back to English; an unknown key raises ``KeyError`` (a typo must
    not reach the screen silently).
    """
    en, ja = STRINGS[key]
    text = ja if lang == "ja" else en
    return text.format(**fmt) if fmt else text


def num(v: float, digits: int = 4) -> str:
    """A number as a lecturer would write it: ``num(0.3333333) == '0.3333'``, ``num(2.0) == '2'``.

    >>> num(0.3333333), num(2.0), num(-1e-17)
    ('0.3333', '2', '0')
    """
    v = float(v)
    if abs(v) < 1e-12:
        v = 0.0
    return f"{v:.{digits}g}"
