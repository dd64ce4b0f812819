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
        "ダウンロード)。'利用可能' はこのマシンにあるかどうかです。",
    ),
    "home.desc.playground": (
        "Up to four learners on the same 2-D stream; rewind to any t, "
        "watch the lines, regions, margin band and mistakes.",
        "同じ 2次元のデータ列で最大四つの学習器。任意の t に戻り、境界線・"
        "領域・マージン帯・誤りを見る。",
    ),
    "home.desc.spa": (
        "The signature page: one SPA update sub-step by sub-step, PA beside it, "
        "a QP solver as referee, the paper's misprints.",
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

# the family map's edge labels
STRINGS.update(
    {
        "home.edge.margin": ("margin +\nsmallest change", "マージン +\n最小の変化"),
        "home.edge.slack1": ("+ C ξ", "+ C ξ"),
        "home.edge.slack2": ("+ C ξ²", "+ C ξ²"),
        "home.edge.every": ("every wrong class", "すべての不正解クラス"),
        "home.edge.gauss": ("Gaussian over w", "w 上のガウス分布"),
        "home.edge.regularised": ("regularised", "正則化"),
        "home.edge.loss1": ("+ C ℓ", "+ C ℓ"),
        "home.edge.loss2": ("+ C ℓ²", "+ C ℓ²"),
        "home.edge.subproblem": ("one step =\none sub-problem", "一回の更新 =\n部分問題一つ"),
        # dataset cards
        "home.col.name": ("name", "名前"),
        "home.col.kind": ("kind", "種類"),
        "home.col.title": ("title", "内容"),
        "home.col.samples": ("samples", "サンプル数"),
        "home.col.features": ("features", "特徴数"),
        "home.col.classes": ("classes", "クラス数"),
        "home.col.available": ("available", "利用可能"),
        "home.col.source": ("source", "出典"),
        "home.col.licence": ("licence", "ライセンス"),
        "home.col.notes": ("notes", "説明"),
        "home.kind.toy": ("toy", "トイ"),
        "home.kind.embedded": ("embedded", "同梱"),
        "home.kind.real": ("real", "実データ"),
        "home.kind.pairs": ("pairs", "文書ペア"),
        "home.kind.sgd": ("sgd", "SGD 用"),
        "home.verbatim": (
            "Sources and licences are quoted as their distributors state them.",
            "出典とライセンスは配布元の記載をそのまま引用しています。",
        ),
        "home.ds.toy-blobs": ("Gaussian blobs (2-D)", "ガウス分布の塊 (2次元)"),
        "home.ds.toy-separable": (
            "Linearly separable sectors with a chosen margin (2-D)",
            "指定したマージンで線形分離可能な扇形 (2次元)",
        ),
        "home.ds.toy-xor": ("XOR quadrants (2-D)", "XOR 象限 (2次元)"),
        "home.ds.toy-moons": ("Two moons (2-D)", "二つの三日月 (2次元)"),
        "home.ds.toy-drift": (
            "Rotating sectors: concept drift (2-D)",
            "回転する扇形: コンセプトドリフト (2次元)",
        ),
        "home.ds.digits": (
            "Optical recognition of handwritten digits (8x8, scikit-learn)",
            "手書き数字の光学認識 (8x8, scikit-learn)",
        ),
        "home.ds.usps": (
            "USPS handwritten digits (16x16, LIBSVM format)",
            "USPS 手書き数字 (16x16, LIBSVM 形式)",
        ),
        "home.ds.20news-8": (
            "20 Newsgroups, 8 groups ([[000]]'s subset)",
            "20 Newsgroups の 8 グループ ([[000]] の部分集合)",
        ),
        "home.ds.reuters-20": (
            "Reuters-21578, 20 single-topic classes ([[000]], Table 3)",
            "Reuters-21578, 単一トピックの 20 クラス ([[000]] の表 3)",
        ),
        "home.ds.pair": (
            "Document pair {pos} (+1) vs {neg} (−1)",
            "文書ペア {pos} (+1) 対 {neg} (−1)",
        ),
        "home.ds.sgd-balanced": (
            "Hashed one-vs-rest, balanced (technology vs rest)",
            "ハッシュ化した一対他、均衡 (技術 対 その他)",
        ),
        "home.ds.sgd-rare": (
            "Hashed one-vs-rest, rare positive (Reuters 'gold' vs rest)",
            "ハッシュ化した一対他、正例がまれ (Reuters の gold 対 その他)",
        ),
        "home.note.toy": (
            "Generated in 2-D from a random seed; label noise flips round(noise·n) labels.",
            "シード付きで生成する 2次元データ。ラベルノイズは round(noise·n) 個のラベルを反転。",
        ),
        "home.note.digits": (
            "1,797 images of 8x8 pixels, values 0..16, labels 0-9; no preprocessing.",
            "8x8 画素の画像 1,797 枚、値 0..16、ラベル 0-9。前処理なし。",
        ),
        "home.note.usps": (
            "7,291 training and 2,007 test images, 256 grey levels in [−1, 1], digits 0..9.",
            "訓練 7,291 枚とテスト 2,007 枚、[−1, 1] の 256 階調、数字 0..9。",
        ),
        "home.note.text": (
            "Bag-of-words counts of the documents.",
            "文書の単語頻度 (bag-of-words)。",
        ),
        "home.note.pair_ja": (
            "Binary presence of character 1-2-grams (Japanese, no dictionary).",
            "文字 1-2 グラムの有無 (日本語、辞書なし)。",
        ),
        "home.note.pair_en": (
            "Binary presence of lowercase words; an English pair (no counterpart in the papers).",
            "小文字化した単語の有無。英語の文書ペア (論文に対応なし)。",
        ),
        "home.note.sgd": (
            "Hashed to 2^20 features, term frequencies with unit-L2 rows; labels ±1; "
            "10% held-out test split.",
            "2^20 次元にハッシュ化、L2 正規化した単語頻度。ラベル ±1、10% をテスト用に分割。",
        ),
    }
)
