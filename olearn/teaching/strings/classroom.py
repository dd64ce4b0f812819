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
    "predict.label": ("Predict, then reveal", "予想してから答え合わせ"),
    "predict.help": (
        "Each update is first a question: its answer, and what comes after it, stay hidden "
        "until you reveal them (Next, the → key or PageDown). Also in the URL: `&predict=1`.",
        "各更新をまず問題として示します。答えとその先は「次へ」(→ キー、PageDown) で表示する"
        "まで隠れます。URL では `&predict=1` です。",
    ),
    "predict.reveal": ("Reveal ▶", "答え ▶"),
    "predict.spa.support.q": (
        "**Predict**: which classes will enter the support set?",
        "**予想**: どのクラスがサポート集合に入るでしょう?",
    ),
    "predict.spa.support.a": (
        "The support set is S = {{{S}}}: classes {inside} enter it",
        "サポート集合は S = {{{S}}}: クラス {inside} が入ります",
    ),
    "predict.spa.support.out": ("; not in it: {outside}", "。入らないクラス: {outside}"),
    "predict.end": (".", "。"),
    "predict.spa.tau.q": (
        "**Predict**: the sign of each τ: which rivals get τ > 0, which τ = 0?",
        "**予想**: 各 τ の符号は? どのライバルが τ > 0 で、どれが τ = 0?",
    ),
    "predict.spa.tau.a": ("τ > 0 for classes {pos} ({values})", "クラス {pos} で τ > 0 ({values})"),
    "predict.spa.tau.zero": ("; τ = 0 for {zero}", "。クラス {zero} では τ = 0"),
    "predict.spa.tau.y": (
        ". The correct class {y} gains Σ τ x = {T} x; each rival loses its own τ x.",
        "。正解クラス {y} は Σ τ x = {T} x を得て、各ライバルはそれぞれの τ x を失います。",
    ),
    "predict.play.q": (
        "**t = {t} / {n}**. Next example: x = ({x1}, {x2}), class {c}. **Predict**: will each "
        "learner get it right? Where will its boundary go?",
        "**t = {t} / {n}**。次の例: x = ({x1}, {x2})、クラス {c}。**予想**: 各学習器は正解する"
        "でしょうか? 境界はどこへ動くでしょう?",
    ),
    "predict.play.a": (
        "**Example {t} / {n}**: x = ({x1}, {x2}), class {c}. {verdicts}.",
        "**例 {t} / {n}**: x = ({x1}, {x2})、クラス {c}。{verdicts}。",
    ),
    "predict.play.right": ("{name} predicted {p}: right", "{name} の予測 {p}: 正解"),
    "predict.play.wrong": (
        "{name} predicted {p}: **wrong**, a mistake: it updates",
        "{name} の予測 {p}: **誤り**、更新します",
    ),
    "predict.play.end": (
        "**t = {t} / {n}**: the stream is over.",
        "**t = {t} / {n}**: データ列は終わりです。",
    ),
    "predict.cw.q": (
        "**Predict**: will the ellipse shrink along x, or across it?",
        "**予想**: 楕円は x の方向に縮むでしょうか、それとも x と直交する方向に?",
    ),
    "predict.cw.a": (
        "The variance of w along x goes {a0} → {a1} ({a} % smaller), across x {c0} → {c1} "
        "({c} % smaller): it shrinks {where}.",
        "w の分散は x の方向で {a0} → {a1} ({a} % 減少)、直交方向で {c0} → {c1} ({c} % 減少): "
        "{where}縮みます。",
    ),
    "predict.cw.along": ("mostly along x", "主に x の方向に"),
    "predict.cw.across": ("mostly across x", "主に x と直交する方向に"),
}
