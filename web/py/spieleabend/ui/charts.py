"""Charts as SVG text: a finished game's totals round by round, an evening's standings as bars.

Each chart comes with its text alternative: the SVG is one image with a short description,
and the numbers follow in a table that a screen reader (or anybody) can open.
"""

from spieleabend.games import score_style
from spieleabend.ui.html import attrs, escape
from spieleabend.ui.i18n import register, t

# Colours that stay apart on the green table and for most colour-blind eyes; dashes tell them apart too.
COLOURS = ["#ffd166", "#7fd0ff", "#ff8fa3", "#b8f28b", "#d7a6ff", "#ffa65c", "#f6f1e3", "#6ee7c8"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "", "6 3", "2 3", "8 3 2 3"]
MARKS = ["circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle"]

register({
    "chart.scores_title": ("Punkteverlauf", "Scores round by round"),
    "chart.scores_desc": ("Punktestand nach jeder Runde. Am Ende: %(final)s.",
                          "Totals after each round. At the end: %(final)s."),
    "chart.round": ("Runde", "Round"),
    "chart.start": ("Start", "Start"),
    "chart.as_table": ("Werte als Tabelle", "Values as a table"),
    "chart.no_history": ("Für diese Partie gibt es keinen Verlauf.", "There is no history for this game."),
    "chart.standings_title": ("Stand des Abends", "The evening's standings"),
    "chart.standings_desc": ("Spieleabend-Punkte: %(list)s.", "Game-night points: %(list)s."),
    "chart.points_of": ("%(name)s %(points)s", "%(name)s %(points)s"),
    "chart.computer_name": ("%(name)s (Computer)", "%(name)s (computer)"),
    "chart.person": ("Person", "Person"),
    "chart.points": ("Punkte", "Points"),
    "chart.games": ("Partien", "Games"),
})


def figure(value):
    """Return a number as the tables write it, with a real minus sign ("−52", not "-52")."""
    return "\u2212%d" % -value if value < 0 else "%d" % value


def nice_step(span, most=5):
    """Return a round step (1, 2, 5 times a power of ten) that splits span in at most `most` parts."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if span <= step * factor * most:
                return step * factor
        step *= 10


def ticks(low, high, most=5):
    """Return round values from at or below low to at or above high."""
    step = nice_step(max(high - low, 1), most)
    start = (low // step) * step
    out = []
    value = start
    while value < high + step:
        out.append(value)
        if value >= high:
            break
        value += step
    if len(out) < 2:
        out.append(out[0] + step)
    return out


def short(name, limit=12):
    """Return a name cut to fit a chart label."""
    return name if len(name) <= limit else name[:limit - 1] + "…"


def marker(kind, x, y, colour):
    """Return one point mark; the shape tells the series apart without colour."""
    if kind == "square":
        return '<rect x="%d" y="%d" width="7" height="7" fill="%s"/>' % (x - 3, y - 3, colour)
    if kind == "diamond":
        return '<path d="M%d %dl4 4l-4 4l-4 -4z" fill="%s"/>' % (x, y - 4, colour)
    if kind == "triangle":
        return '<path d="M%d %dl4 7h-8z" fill="%s"/>' % (x, y - 4, colour)
    return '<circle cx="%d" cy="%d" r="3.5" fill="%s"/>' % (x, y, colour)


def score_chart(names, history, testid="score-chart", caption=None, game=None):
    """Return a figure with the totals after each round as lines (history[i]: totals after i rounds)."""
    rows = [row for row in history if isinstance(row, list) and len(row) == len(names)]
    if game is not None and score_style(game) == "minus":
        rows = [[-value for value in row] for row in rows]  # minus points go down, as "−52" says
    if len(rows) < 2 or not names:
        return '<p class="hint chart-missing" data-testid="%s-missing">%s</p>' % (escape(testid), escape(t("chart.no_history")))
    width, height = 320, 190
    left, right, top, bottom = 34, 10, 10, 26
    values = [value for row in rows for value in row]
    low, high = min(values + [0]), max(values + [0])
    marks = ticks(low, high)
    low, high = marks[0], marks[-1]
    span = max(high - low, 1)
    last = len(rows) - 1

    def px(index):
        return left + (width - left - right) * index // max(last, 1)

    def py(value):
        return top + (height - top - bottom) * (high - value) // span

    parts = []
    for value in marks:
        y = py(value)
        parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" class="grid%s"/>' % (
            left, y, width - right, y, " zero" if value == 0 else ""))
        parts.append('<text x="%d" y="%d" class="tick" text-anchor="end">%s</text>' % (left - 4, y + 4, figure(value)))
    step = 1 if last <= 10 else (2 if last <= 20 else 5)
    for index in range(0, last + 1, step):
        parts.append('<text x="%d" y="%d" class="tick" text-anchor="middle">%d</text>' % (px(index), height - 8, index))
    for seat in range(len(names)):
        colour = COLOURS[seat % len(COLOURS)]
        points = " ".join("%d,%d" % (px(i), py(rows[i][seat])) for i in range(len(rows)))
        parts.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"%s stroke-linejoin="round"/>' % (
            points, colour, ' stroke-dasharray="%s"' % DASHES[seat % len(DASHES)] if DASHES[seat % len(DASHES)] else ""))
        parts.append(marker(MARKS[seat % len(MARKS)], px(last), py(rows[last][seat]), colour))
    final = ", ".join(t("chart.points_of", name=names[s], points=figure(rows[last][s])) for s in range(len(names)))
    title = caption or t("chart.scores_title")
    desc = t("chart.scores_desc", final=final)
    svg = ('<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" preserveAspectRatio="xMidYMid meet">'
           '<title>%s</title>%s</svg>' % (width, height, escape(title + ". " + desc), escape(title), "".join(parts)))
    legend = "".join(
        '<li><svg class="key" viewBox="0 0 24 10" aria-hidden="true"><line x1="1" y1="5" x2="23" y2="5" stroke="%s" '
        'stroke-width="2.5"%s/></svg>%s <strong>%s</strong></li>' % (
            COLOURS[s % len(COLOURS)],
            ' stroke-dasharray="%s"' % DASHES[s % len(DASHES)] if DASHES[s % len(DASHES)] else "",
            escape(names[s]), figure(rows[last][s])) for s in range(len(names)))
    head = "".join('<th scope="col">%s</th>' % escape(name) for name in names)
    body = "".join('<tr><th scope="row">%s</th>%s</tr>' % (
        escape(t("chart.start") if i == 0 else str(i)), "".join("<td>%s</td>" % figure(v) for v in rows[i]))
        for i in range(len(rows)))
    table = ('<details class="chart-table"><summary>%s</summary><div class="table-scroll" tabindex="0" role="region" aria-label="%s"><table>'
             '<thead><tr><th scope="col">%s</th>%s</tr></thead><tbody>%s</tbody></table></div></details>' % (
                 escape(t("chart.as_table")), escape(t("chart.as_table")),
                 escape(t("round." + game) if game else t("chart.round")), head, body))  # Golf's Durchgang
    return ('<figure%s>%s<figcaption><ul class="legend" aria-hidden="true">%s</ul><p class="visually-hidden">%s</p>'
            '</figcaption>%s</figure>' % (
                attrs(class_="chart-figure", data_testid=testid), svg, legend, escape(desc), table))


def standings_chart(rows, testid="night-chart"):
    """Return a figure with each person's game-night points as a horizontal bar."""
    if not rows:
        return ""
    width = 320
    bar_h, gap, label_w, top = 20, 8, 96, 4
    height = top + len(rows) * (bar_h + gap)
    most = max([row["points"] for row in rows] + [1])
    inner = width - label_w - 34
    parts = []
    for index in range(len(rows)):
        row = rows[index]
        y = top + index * (bar_h + gap)
        length = inner * row["points"] // most
        parts.append('<text x="%d" y="%d" class="label%s" text-anchor="end">%s</text>' % (
            label_w - 6, y + bar_h - 5, " computer" if row.get("computer") else "", escape(short(row["name"]))))
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" rx="3" class="bar%s" data-player="%s" data-points="%d"/>' % (
            label_w, y, max(length, 2), bar_h, " lead" if row["points"] == most and row["points"] > 0 else "",
            escape(row["name"]), row["points"]))
        parts.append('<text x="%d" y="%d" class="value">%d</text>' % (label_w + max(length, 2) + 5, y + bar_h - 5, row["points"]))
    listing = ", ".join(t("chart.points_of", name=t("chart.computer_name", name=row["name"]) if row.get("computer")
                          else row["name"], points=row["points"]) for row in rows)
    desc = t("chart.standings_desc", list=listing)
    svg = ('<svg class="chart bars" viewBox="0 0 %d %d" role="img" aria-label="%s"><title>%s</title>%s</svg>' % (
        width, height, escape(t("chart.standings_title") + ". " + desc), escape(t("chart.standings_title")), "".join(parts)))
    return '<figure%s>%s<figcaption class="visually-hidden">%s</figcaption></figure>' % (
        attrs(class_="chart-figure", data_testid=testid), svg, escape(desc))
