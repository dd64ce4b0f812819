"""UI strings: SGD (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "sgd.title": (
        "SGD-SVM: one global learning rate or one per feature",
        "SGD-SVM: 全体で一つの学習率か素性ごとの学習率か",
    ),
    "sgd.intro": (
        "Bottou's SGD uses η_t = 1/(λ(t + t₀)) for every weight. [[004]] gives each feature "
        "its own clock t_j (the examples in which it appeared), so a rare word keeps a large "
        "rate when it finally shows up. The data here are word-like: a few frequent features, "
        "many rare ones.",
        "Bottou の SGD は全ての重みに η_t = 1/(λ(t + t₀)) を使います。[[004]] は素性ごとに"
        "時計 t_j (その素性が現れた例の数) を持たせ、稀な単語が現れたときに大きな学習率を"
        "保ちます。ここでのデータは単語のように、少数の頻出素性と多数の稀な素性からなります。",
    ),
    "sgd.lam": ("λ (regularisation)", "λ (正則化)"),
    "sgd.epochs": ("Epochs", "エポック数"),
    "sgd.global": ("global rate", "全体の学習率"),
    "sgd.per-feature": ("per-feature rates", "素性ごとの学習率"),
    "sgd.rate": ("learning rate used", "使われた学習率"),
    "sgd.rate_log": ("learning rate (log scale)", "学習率 (対数目盛)"),
    "sgd.objective_log": ("E(w, b) (log scale)", "E(w, b) (対数目盛)"),
    "sgd.feature_title": ("{feature}: {kind}", "{feature}: {kind}"),
    "sgd.kind0": ("frequent feature", "頻出する素性"),
    "sgd.kind1": ("rare feature", "稀な素性"),
    "sgd.col.schedule": ("schedule", "学習率の方式"),
    "sgd.col.objective": ("objective E(w, b)", "目的関数 E(w, b)"),
    "sgd.col.f1": ("held-out F-measure", "評価データの F 値"),
    "sgd.col.seconds": ("training time (s)", "学習時間 (秒)"),
    "sgd.seconds": ("training time (s)", "学習時間 (秒)"),
    "sgd.f1": ("F-measure (held out)", "F 値 (評価データ)"),
    "sgd.f1_title": ("F-measure vs training time", "学習時間に対する F 値"),
    "sgd.objective": ("The objective E(w, b) during training", "学習中の目的関数 E(w, b)"),
    "sgd.rates": ("Learning rates used", "使われた学習率"),
    "sgd.rates_caption": (
        "x0 is in half of the examples, x150 in 2 %: with per-feature clocks the rare "
        "feature keeps a large rate.",
        "x0 は例の半分に、x150 は 2 % に現れます: 素性ごとの時計では"
        "稀な素性が大きな学習率を保ちます。",
    ),
}
