"""UI strings: home (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
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
}
