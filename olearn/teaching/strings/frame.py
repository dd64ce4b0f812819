"""UI strings: frame (key -> (English, Japanese))."""

STRINGS: dict[str, tuple[str, str]] = {
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
    "ui.warming": (
        "Preparing kernels (first run only): this server is compiling olearn's numba "
        "kernels; the first figures may take a few seconds more.",
        "カーネルを準備中 (初回のみ): このサーバーは olearn の numba カーネルをコンパイル"
        "しています。最初の図の表示に数秒余分にかかることがあります。",
    ),
    "ui.share": ("Link to this view (seed included)", "この画面へのリンク (シード込み)"),
    "ui.share.button": ("Share this view", "この画面を共有"),
    "ui.references": ("References", "参考文献"),
    "ui.share.title": ("Share this view", "この画面を共有"),
    "ui.share.qr": ("QR code of this view's link", "この画面へのリンクの QR コード"),
    "ui.share.qr_help": (
        "Students scan it with a phone's camera and see this view, in this state. The code "
        "is drawn on this server: nothing is sent elsewhere.",
        "学生はスマートフォンのカメラで読み取れば、この状態のこの画面を開けます。コードは"
        "このサーバーで描かれ、外部には何も送られません。",
    ),
    "ui.share.local": (
        "This address names this computer only: phones cannot open it. Start the server with "
        "`olearn app --server.address 0.0.0.0` and open the app by this computer's network "
        "address (e.g. http://192.168.1.20:8501) before sharing.",
        "このアドレスはこのコンピュータ自身を指すため、スマートフォンからは開けません。"
        "`olearn app --server.address 0.0.0.0` でサーバーを起動し、このコンピュータの"
        "ネットワーク上のアドレス (例: http://192.168.1.20:8501) でアプリを開いてから"
        "共有してください。",
    ),
    "ui.share.help": (
        "The address bar's URL reproduces this screen, seed included. Add "
        "`&hide=all` "
        "(or `&hide=key1,key2`) to hide the controls for a lesson.",
        "アドレスバーの URL でこの画面を再現できます。授業用に `&hide=all` "
        "(または `&hide=key1,key2`) を付けると操作部品を隠せます。",
    ),
    "ui.error": ("Something went wrong: {message}", "エラーが発生しました: {message}"),
    "ui.bad_param": ("Invalid parameter: {message}", "パラメータが不正です: {message}"),
    "ui.clamped": (
        "The link's {name} = {given} is outside {low}..{high}: using {used}.",
        "リンクの {name} = {given} は範囲 {low}..{high} の外です。{used} を使います。",
    ),
    "ui.too_many": (
        "The link's {name} lists more than {most}: left out {dropped}.",
        "リンクの {name} は {most} 個を超えています。{dropped} は使いません。",
    ),
    "ui.bad_points": (
        "The link's points were not used ({message}); showing the example points.",
        "リンクの点は使いません ({message})。例の点を表示しています。",
    ),
    "ui.budget": (
        "Too large for this app: {message}",
        "このアプリには大きすぎます: {message}",
    ),
    "ui.data_missing": (
        "Data not available on this machine: {message}",
        "このマシンではデータを利用できません: {message}",
    ),
    "ui.download_csv": ("Download CSV", "CSV をダウンロード"),
    "ui.png_hint": (
        "Every figure downloads from its toolbar's camera icon, as PNG or SVG (for slides).",
        "図はツールバーのカメラアイコンから保存できます (PNG または スライド用の SVG)。",
    ),
    "ui.image_format": ("Figures save as", "図の保存形式"),
    "ui.image_format.help": (
        "The format the camera icon of every figure's toolbar saves: PNG, or SVG for slides.",
        "各図のツールバーのカメラアイコンで保存する形式: PNG、またはスライド用の SVG。",
    ),
    "ui.download_html": ("Animation as HTML", "アニメーションを HTML で保存"),
    "ui.download_html.help": (
        "One HTML file with every frame, which plays offline in any browser: open it from a "
        "slide or hand it out.",
        "全フレームを含む HTML ファイル一つ。どのブラウザでもオフラインで再生できます。"
        "スライドから開いたり配布したりできます。",
    ),
    "ui.seed": ("Seed", "乱数シード"),
    "ui.settings": ("Settings", "設定"),
    "ui.present": ("Present (projector layout)", "発表モード (プロジェクター向け)"),
    "ui.present.help": (
        "Hides the sidebar and folds the controls into one Settings box, so the figure and the "
        "step's text fit a 1280×720 screen. Also in the URL: `&present=1`.",
        "サイドバーを隠し、操作部品を「設定」の中にまとめて、図と説明が 1280×720 の画面に"
        "収まるようにします。URL では `&present=1` です。",
    ),
    "ui.class": ("class", "クラス"),
    "ui.yes": ("yes", "はい"),
    "ui.no": ("no", "いいえ"),
}
