"""UI strings: compare (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "cmp.title": ("Compare on real data", "実データで比較"),
    "cmp.intro": (
        "The protocol of [[000]]: K-fold cross-validation, C tuned on one randomly chosen "
        "fold, error averaged over the folds. Embedded data run at once; the real corpora "
        "need $OLEARN_DATA. Results are cached: the same settings come back instantly.",
        "[[000]] の手順: K 分割交差検証、ランダムに選んだ一つの分割で C を調整、誤り率は"
        "分割の平均。同梱データはすぐに実行でき、実コーパスには $OLEARN_DATA が必要です。"
        "結果はキャッシュされ、同じ設定ならすぐに表示されます。",
    ),
    "cmp.source": ("Data", "データ"),
    "cmp.source.registered": ("A registered dataset", "登録済みデータセット"),
    "cmp.source.upload": (
        "Upload my own (svmlight / CSV)",
        "自分のデータをアップロード (svmlight / CSV)",
    ),
    "cmp.source.store": (
        "A store (out of core, $OLEARN_DATA/stores)",
        "ストア (アウトオブコア, $OLEARN_DATA/stores)",
    ),
    "cmp.store": ("Store", "ストア"),
    "cmp.store.none": (
        "No store under {root}. Convert a file into one with `olearn store convert FILE "
        "{root}/NAME`.",
        "{root} にストアがありません。`olearn store convert FILE {root}/NAME` でファイルを"
        "変換してください。",
    ),
    "cmp.store.bad": (
        "This store cannot be used: {message}",
        "このストアは使えません: {message}",
    ),
    "cmp.store.col.algorithm": ("algorithm", "アルゴリズム"),
    "cmp.store.col.error %": ("held-out error %", "検証誤り率 %"),
    "cmp.store.col.train s": ("training s", "学習時間 (秒)"),
    "cmp.store.col.rows/s": ("rows/s", "行/秒"),
    "cmp.dataset": ("Dataset", "データセット"),
    "cmp.upload": (
        "Upload a file (svmlight or CSV, at most {mb} MB; label column 'label', 'class' or "
        "'target', else the last)",
        "ファイルをアップロード (svmlight または CSV, {mb} MB まで; ラベル列は 'label'・"
        "'class'・'target'、なければ最後の列)",
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
    "cmp.scale": ("Scaling", "スケーリング"),
    "cmp.scale.none": ("none (the paper's features)", "なし (論文の素性)"),
    "cmp.scale.l2": ("rows to unit length (L2)", "行を単位長に (L2)"),
    "cmp.scale.standard": ("columns standardised", "列を標準化"),
    "cmp.intercept": ("Intercept", "切片"),
    "cmp.intercept.on": ("with an intercept", "切片あり"),
    "cmp.intercept.off": ("no intercept", "切片なし"),
    "cmp.ran": (
        "{folds}-fold cross-validation, {epochs} epoch(s), scaling: {scale}, {intercept}.",
        "{folds} 分割交差検証、{epochs} エポック、スケーリング: {scale}、{intercept}。",
    ),
    "cmp.note.baseline": (
        "Always answering the most frequent class: {error} % error on the same folds.",
        "常に最も多いクラスと答えた場合: 同じ分割で誤り率 {error} %。",
    ),
    "cmp.note.trivial": (
        "Every learner is no better than always answering the most frequent class "
        "({error} % error): these numbers say little about the learners. Try standardised "
        "columns, an intercept or more epochs.",
        "どの学習器も、常に最も多いクラスと答える場合 (誤り率 {error} %) より良くありません: "
        "この数字は学習器についてほとんど何も語りません。列の標準化・切片・エポック数の"
        "増加を試してください。",
    ),
    "cmp.note.off_centre": (
        "The data's mean lies {spreads} standard deviations from the origin: a linear model "
        "through the origin (or one with a small intercept) cannot separate classes that far "
        "out. Standardise the columns.",
        "データの平均が原点から標準偏差の {spreads} 倍離れています: 原点を通る線形モデル "
        "(あるいは小さな切片をもつもの) ではこれほど遠くのクラスを分けられません。列を"
        "標準化してください。",
    ),
    "cmp.run": ("Run the comparison", "比較を実行"),
    "cmp.press_run": (
        "Choose the settings and press the button.",
        "設定を選んでボタンを押してください。",
    ),
    "cmp.card": ("Dataset card", "データセットカード"),
    "cmp.errors": ("Test error on {dataset}", "{dataset} でのテスト誤り率"),
    "cmp.ours": ("ours", "本実装"),
    "cmp.paper": ("paper ([[000]], Table 4)", "論文 ([[000]], 表 4)"),
    "cmp.error_axis": ("error (%)", "誤り率 (%)"),
    "cmp.curves": (
        "Online mistake rate (progressive validation)",
        "逐次の誤り率 (progressive validation)",
    ),
    "cmp.t_axis": ("examples seen", "受け取った例の数"),
    "cmp.rate_axis": ("cumulative mistakes (%)", "累積誤り率 (%)"),
    "cmp.times": ("Training time per fold", "分割あたりの学習時間"),
    "cmp.time_axis": ("seconds (log)", "秒 (対数)"),
    "cmp.paper_protocol": (
        "This dataset is in Table 4 of [[000]]: the settings start from the reproduction's "
        "protocol (all data, 10 folds, 10 epochs, unit-length rows, C from 0.001 to 10), so "
        "the paper column compares like with like. Any change is noted beside that column.",
        "このデータセットは [[000]] の表 4 にあります: 設定は再現と同じ手順 (全データ、"
        "10 分割、10 エポック、行を単位長に正規化、C は 0.001 から 10) から始まるので、"
        "論文の列と同じ条件で比べられます。変更すると論文の列の横に注記が出ます。",
    ),
    "cmp.caveat": ("differs from the paper's protocol", "論文の手順との違い"),
    "cmp.caveat.folds": ("{ours} folds (paper 10)", "{ours} 分割 (論文 10)"),
    "cmp.caveat.epochs": ("{ours} epochs (reproduction 10)", "{ours} エポック (再現 10)"),
    "cmp.caveat.max_samples": (
        "{ours} samples (paper: all)",
        "{ours} 件 (論文: 全部)",
    ),
    "cmp.caveat.scale": (
        "scaling {ours} (reproduction: {paper})",
        "スケーリング {ours} (再現: {paper})",
    ),
    "cmp.caveat.c_grid": ("C grid {ours} (reproduction {paper})", "C の候補 {ours} (再現 {paper})"),
    "cmp.caveat.intercept": ("an intercept (paper: none)", "切片あり (論文: なし)"),
    "cmp.all": ("all", "全部"),
    "cmp.protocol": (
        "The protocol's choices (as the CLI prints them)",
        "手順の選択 (CLI の出力のまま、英語)",
    ),
    "cmp.algo.maxent": ("Maxent (logistic)", "最大エントロピー (ロジスティック回帰)"),
    "cmp.algo.svm": ("SVM (Table 4 baseline)", "SVM (表 4 のベースライン)"),
    "cmp.algo.averaged": ("{name} (averaged)", "{name} (平均化)"),
    "cmp.col.algorithm": ("algorithm", "アルゴリズム"),
    "cmp.col.key": ("key", "キー"),
    "cmp.col.error": ("error %", "誤り率 %"),
    "cmp.col.std": ("std", "標準偏差"),
    "cmp.col.paper": ("paper %", "論文 %"),
    "cmp.col.params": ("params", "パラメータ"),
    "cmp.col.train_time": ("train time (s)", "学習時間 (秒)"),
    "cmp.progress": ("Running: {message}", "実行中: {message}"),
    "cmp.unavailable": (
        "This dataset is not on this machine: set OLEARN_DATA to the folder "
        "holding its archives (or allow the download). Details: {message}",
        "このデータセットはこのマシンにありません: アーカイブのあるフォルダを "
        "OLEARN_DATA に設定してください (またはダウンロードを許可)。"
        "詳細: {message}",
    ),
}
