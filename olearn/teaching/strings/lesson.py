"""UI strings: the lesson page (key -> (English, Japanese)).

The narratives follow seed 000 (Matsushima et al., SPA) and seed 001 (the SCW overview:
Perceptron -> PA -> CW -> AROW -> SCW); each claim is one of theirs."""

STRINGS: dict[str, tuple[str, str]] = {
    "page.lesson": ("Lesson", "授業"),
    "home.desc.lesson": (
        "Run a class from here: eight steps from the Perceptron to SCW, each with a short "
        "story and its live view.",
        "ここから授業を進められます: パーセプトロンから SCW まで八つのステップ。それぞれ短い"
        "説明と実際の図つき。",
    ),
    "lesson.title": ("Lesson: from the Perceptron to SCW", "授業: パーセプトロンから SCW まで"),
    "lesson.intro": (
        "A guided sequence to run a class from. Each step: a short story on the left, the "
        "live view on the right, and a link that opens the full page in the same state.",
        "授業をそのまま進められる順路です。各ステップは左に短い説明、右に実際の図、"
        "そして同じ状態で元のページを開くリンクからなります。",
    ),
    "lesson.step": ("Lesson step", "ステップ"),
    "lesson.prev": ("◀ Previous", "◀ 前へ"),
    "lesson.next": ("Next ▶", "次へ ▶"),
    "lesson.of": ("Step {i} of {n}", "ステップ {i} / {n}"),
    "lesson.open": ("Open this view in its page ↗", "この図を元のページで開く ↗"),
    "lesson.progress": ("Cross-validating on the digits…", "digits で交差検証中…"),
    # 1
    "lesson.perceptron.title": ("The Perceptron", "パーセプトロン"),
    "lesson.perceptron.text": (
        "The simplest online linear classifier (Rosenblatt). Predict with the current "
        "weights; on a mistake, add y x (with several classes: the correct class gains x, "
        "the class that won loses x); when right, change nothing. On linearly separable data "
        "it stops making mistakes after finitely many updates (the convergence theorem). "
        "The plot: the regions it learnt from one pass over the stream.",
        "最も単純な逐次線形分類器 (Rosenblatt)。現在の重みで予測し、誤ったときだけ y x を"
        "足します (多クラスでは正解クラスに x を足し、勝ったクラスから x を引く)。"
        "正しければ何も変えません。線形分離可能なデータなら有限回の更新で誤りが止まります"
        " (収束定理)。図: データ列を一回通して学習した領域。",
    ),
    # 2
    "lesson.pa.title": ("Passive-Aggressive", "Passive-Aggressive (PA)"),
    "lesson.pa.text": (
        "PA is passive when the example is classified with a margin of at least 1, and "
        "otherwise aggressive: it makes the smallest change of w that gives this example "
        "margin 1: the step is as large as needed and no larger (τ = loss / 2‖x‖² with "
        "several classes, the correct class and the best rival each moving by τ x). "
        "Aggressive steps chase noisy labels; PA-I and PA-II tolerate some error with a "
        "slack price C. Compare its regions and mistakes with the Perceptron's.",
        "PA は例がマージン 1 以上で正しく分類されていれば何もせず (passive)、そうでなければ"
        "その例のマージンが 1 になる最小の変化を w に加えます (aggressive)。ステップは"
        "必要な分だけです (多クラスでは τ = 損失 / 2‖x‖² で、正解クラスと最大の対抗クラスが"
        "それぞれ τ x だけ動く)。積極的すぎてノイズに振り回されるので、"
        "PA-I と PA-II はスラックの重み C で誤りをある程度許します。"
        "領域と誤り数をパーセプトロンと比べてください。",
    ),
    # 3
    "lesson.pa_fails.title": ("PA's failure on three rivals", "三つの対抗クラスで PA が失敗する"),
    "lesson.pa_fails.text": (
        "Multiclass PA updates at most two classes: the correct one and the best rival. "
        "Here three wrong classes score above the correct class. PA satisfies its one "
        "constraint against the best rival, and another rival is left on top: after the "
        "update the example is **still misclassified** ([[000]], section 2). Binary PA "
        "never has this problem; it comes with more than two classes.",
        "多クラス PA が更新するのは高々二つのクラス、正解クラスと最大の対抗クラスだけです。"
        "ここでは三つの不正解クラスが正解クラスより高いスコアを持ちます。PA は最大の対抗"
        "クラスに対する一つの制約を満たしますが、別の対抗クラスが上に残り、更新後も例は"
        "**誤分類されたまま** です ([[000]], 2 節)。2 値分類では起こらない、多クラス特有の"
        "問題です。",
    ),
    # 4
    "lesson.spa_fixes.title": ("SPA fixes it", "SPA による解決"),
    "lesson.spa_fixes.text": (
        "SPA asks for a margin of 1 over **every** wrong class and solves that problem "
        "exactly. Sorting Q_u = (1 − m_u)/‖x‖² and one simple test (Eq. 8) find the support "
        "classes, the ones that get a positive step. After SPA's update the example is "
        "always classified correctly; and not every class scoring above the correct one is "
        "a support class. The plot: the new scores, each wrong class at least 1 below.",
        "SPA は **すべての** 不正解クラスに対してマージン 1 を求め、その問題を厳密に解きます。"
        "Q_u = (1 − m_u)/‖x‖² を並べ替え、簡単な判定 (式 8) でサポートクラス (正の"
        "ステップを受けるクラス) が決まります。SPA の更新後、例は必ず正しく分類されます。"
        "正解より高いスコアのクラスがすべてサポートクラスになるとは限りません。"
        "図: 新しいスコア。どの不正解クラスも 1 以上下にあります。",
    ),
    # 5
    "lesson.slack.title": ("SPA-I, SPA-II and C", "SPA-I, SPA-II と C"),
    "lesson.slack.text": (
        "As PA-I and PA-II do for PA, SPA-I adds C ξ and SPA-II adds C ξ² to the objective "
        "([[000]], Table 2): one slack ξ for all wrong classes. SPA-I caps the total step "
        "at Σ τ ≤ C; SPA-II shrinks every τ smoothly. The plot: each τ and their sum as C "
        "grows, with the hard SPA step dashed. The printed Table 2 contains misprints; the "
        "SPA page shows the printed and the derived formulas side by side.",
        "PA に対する PA-I, PA-II と同じく、SPA-I は C ξ、SPA-II は C ξ² を目的関数に加えます"
        " ([[000]], 表 2)。スラック ξ はすべての不正解クラスで共通です。SPA-I はステップの"
        "合計を Σ τ ≤ C で抑え、SPA-II はすべての τ を滑らかに縮めます。図: C を大きく"
        "したときの各 τ とその合計 (破線はハード SPA)。印刷された表 2 には誤植があり、"
        "SPA のページで印刷された式と導出した式を並べて示しています。",
    ),
    # 6
    "lesson.cw.title": ("CW keeps a confidence", "CW は確信度を持つ"),
    "lesson.cw.text": (
        "Confidence-weighted learning keeps a Gaussian N(μ, Σ) over the weights: μ is the "
        "most plausible weight vector, Σ how sure it is. Features seen often have small "
        "variance and move little; rare ones move a lot ([[001]]). One update finds the "
        "Gaussian closest to the old one under which this example is classified correctly "
        "with probability at least η. The plot: the Gaussian before and after.",
        "信頼度重み付き学習 (CW) は重みにガウス分布 N(μ, Σ) を持ちます。μ は最ももっともらしい"
        "重み、Σ はそれにどれだけ自信があるかです。よく現れる特徴は分散が小さく少しだけ、"
        "まれな特徴は大きく動きます ([[001]])。一回の更新は、この例を確率 η 以上で正しく"
        "分類する分布のうち、元の分布に最も近いものを選びます。図: 更新前後のガウス分布。",
    ),
    # 7
    "lesson.noise.title": ("AROW and SCW under label noise", "ラベルノイズ下の AROW と SCW"),
    "lesson.noise.text": (
        "CW's weakness: with noisy labels its performance drops sharply, because like PA it "
        "makes sure every given example is classified correctly ([[001]]). AROW balances "
        "three aims: growing confidence, classifying the example, staying close to the old "
        "Gaussian. SCW adds a soft margin with a price C, as PA-I does. The plot: errors "
        "with a share of the labels flipped.",
        "CW の弱点: ラベルにノイズがあると性能が急に落ちます。PA と同じく、与えられた例を"
        "必ず正しく分類するように更新するからです ([[001]])。AROW は、確信度を上げる・"
        "例を正しく分類する・元の分布に近い、の三つを同時に考えます。SCW は PA-I のように"
        "重み C のソフトマージンを加えます。図: ラベルの一部を反転させたときの誤り。",
    ),
    # 8
    "lesson.real.title": ("Side by side on real data", "実データで並べて比較"),
    "lesson.real.text": (
        "The same learners on real data: handwritten digits (8x8 images, 10 classes), "
        "cross-validated error for each, C chosen on one fold as in the protocol of [[000]]. "
        "[[000]] report SPA below PA and the Perceptron on 20 Newsgroups, USPS and "
        "Reuters (Table 4); the Reproduce page recomputes that table. Numbers here are "
        "computed now, on a small sample, and say nothing about the paper's corpora.",
        "同じ学習器を実データで比べます: 手書き数字 (8x8 画像, 10 クラス) での交差検証の誤り率。"
        "C は [[000]] の手順どおり一つの分割で選びます。[[000]] は 20 Newsgroups, USPS, "
        "Reuters で SPA の誤り率が PA やパーセプトロンより低いと報告しています (表 4)。"
        "その表は「論文の再現」ページで再計算できます。ここの数値はその場で小さな標本から"
        "計算したもので、論文のコーパスについては何も言いません。",
    ),
}
