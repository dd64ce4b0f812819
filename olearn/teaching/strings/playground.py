"""UI strings: playground (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
    "play.row_refused": (
        "A row of the table was left out: {message}.",
        "表の行を 1 つ除きました: {message}。",
    ),
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
    "play.mistakes": ("mistakes", "回の誤り"),
    "play.weight_space": (
        "Weight space: class means and covariance ellipses (1σ)",
        "重み空間: クラスの平均と共分散の楕円 (1σ)",
    ),
    "play.points": (
        "Your points (edit, add rows; class 0..5)",
        "あなたの点 (編集・行の追加; クラスは 0..5)",
    ),
    "play.place_class": ("Class of the next point", "次に置く点のクラス"),
    "play.place_title": ("Click to place a point", "クリックして点を置く"),
    "play.to_spa": ("Open this state in the SPA step-through", "この状態を SPA の小ステップで開く"),
    "play.spa_learner": ("Learner for the step-through", "小ステップで見る学習器"),
    "play.need_algo": ("Choose at least one learner.", "学習器を一つ以上選んでください。"),
    "play.note.next": (
        "**t = {t} / {n}**. Next example: x = ({x1}, {x2}), class {c}. {verdicts}.",
        "**t = {t} / {n}**。次の例: x = ({x1}, {x2})、クラス {c}。{verdicts}。",
    ),
    "play.note.right": ("{name} predicts {p}: right", "{name} の予測 {p}: 正解"),
    "play.note.wrong": (
        "{name} predicts {p}: **wrong**, it updates",
        "{name} の予測 {p}: **誤り**、更新する",
    ),
    "play.note.end": (
        "**t = {t} / {n}**: the stream is over. Mistakes: {counts}.",
        "**t = {t} / {n}**: データ列は終わりです。誤りの数: {counts}。",
    ),
    "play.test": ("Test share", "テスト用の割合"),
    "play.test_help": (
        "Part of the generated data held out of the stream; its error is drawn beside the "
        "online mistakes.",
        "生成したデータのうち学習に使わない割合。その誤り率を逐次の誤り数の横に描きます。",
    ),
    "play.regenerate": ("Regenerate data", "データ再生成"),
    "play.test_error": ("Test error", "テスト誤り率"),
    "play.count_axis": ("mistakes (count)", "誤りの数"),
    "play.fps": ("frames/s", "コマ/秒"),
    "play.keys_hint": (
        "Keys: space = play/pause, ← → (or PageDown / PageUp) = one step.",
        "キー操作: スペース = 再生/一時停止、← → (または PageDown / PageUp) = 1ステップ。",
    ),
    "play.delete": ("Delete", "削除"),
    "play.clear": ("Clear", "全消去"),
    "play.place_mode": ("Click adds a point of class … or deletes", "クリックで置くクラス / 削除"),
    "play.place_disabled": (
        "Sliders for generated data are off while you place points.",
        "点を置いている間、生成データ用のスライダーは無効です。",
    ),
    "play.need_points": (
        "Place at least two points of two different classes.",
        "異なる二つのクラスの点を少なくとも二つ置いてください。",
    ),
    "play.open_link": (
        "Open learner {name} at t = {t} in the SPA step-through (a link that works anywhere)",
        "学習器 {name} の t = {t} の状態を SPA の小ステップで開く (どこでも使えるリンク)",
    ),
    "play.axis1": ("feature 1", "特徴 1"),
    "play.axis2": ("feature 2", "特徴 2"),
    "play.cw_hint_ellipses": (
        "Confidence-weighted learners keep a covariance Σ: each class mean μ_k with its 1σ "
        "ellipse; the ellipses shrink as the learner grows confident. Learners differ by dash.",
        "信頼度重み付きの学習器は共分散 Σ を持ちます。各クラスの平均 μ_k と 1σ の楕円。"
        "学習器が確信を深めると楕円は縮みます。学習器は線種で区別します。",
    ),
}
