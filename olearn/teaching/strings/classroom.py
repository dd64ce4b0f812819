"""UI strings of the classroom tools: the keys a clicker sends, the colour theme, projector
mode, and predict-then-reveal."""

STRINGS = {
    "keys.player": (
        "Keys: space plays / pauses · → or PageDown: one step · ← or PageUp: back",
        "キー: スペースで再生 / 一時停止 · → または PageDown: 1 ステップ · ← または PageUp: 戻る",
    ),
    "keys.step": (
        "Keys: →, PageDown or space: next · ← or PageUp: back",
        "キー: →、PageDown、スペース: 次へ · ← または PageUp: 戻る",
    ),
    "spa.tab.step": ("This sub-step", "このステップ"),
    "spa.tab.qp": ("QP check", "QP で検算"),
    "spa.tab.formulas": ("Printed vs derived", "印刷と導出"),
    "cw.view": ("Show", "表示"),
    "cw.view.update": ("One update", "一回の更新"),
    "cw.view.noise": ("Label noise", "ラベルノイズ"),
    "theme.label": ("Theme", "テーマ"),
    "theme.auto": ("Follow the system", "システムの設定に合わせる"),
    "theme.light": ("Light", "ライト"),
    "theme.dark": ("Dark (a dark room)", "ダーク (暗い部屋向け)"),
    "theme.help": (
        "The app's colours and every figure's: light, dark for a dark room, or the system's "
        "preference. Also in the URL: `&theme=dark`.",
        "アプリと全ての図の配色: ライト、暗い部屋向けのダーク、またはシステムの設定。"
        "URL では `&theme=dark` です。",
    ),
}
