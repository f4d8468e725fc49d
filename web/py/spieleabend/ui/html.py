"""Small helpers that build HTML text (rendering by strings keeps Brython's DOM calls few)."""


def escape(text):
    """Return text safe to put inside HTML elements and quoted attributes."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def attrs(**values):
    """Return HTML attributes; underscores become dashes, None and False are left out."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        if value is True:
            parts.append(" " + name)
        else:
            parts.append(' %s="%s"' % (name, escape(value)))
    return "".join(parts)


def button(label, action, testid=None, kind="secondary", disabled=False, extra=None, **more):
    """Return a button that sends `action` to the screen when tapped."""
    return "<button%s>%s</button>" % (
        attrs(type="button", class_="btn btn-" + kind + (" " + extra if extra else ""),
              data_action=action, data_testid=testid, disabled=disabled, **more),
        escape(label))


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def number_card(number, label, selected=False, action=None, testid=None, disabled=False, size=""):
    """Return a Punktejagd/Kartenkampf number card (1..10) as a tappable card face."""
    tag = "button" if action else "div"
    return (
        '<%s%s><span class="corner tl">%d</span><span class="pip">%d</span>'
        '<span class="corner br">%d</span></%s>' % (
            tag,
            attrs(type="button" if action else None,
                  class_="card face number n%d%s%s" % (number, " selected" if selected else "",
                                                      " " + size if size else ""),
                  data_action=action, data_value=number, data_testid=testid,
                  aria_label=label, aria_pressed=("true" if selected else "false") if action else None,
                  disabled=disabled),
            number, number, number, tag))


def card_back(label, extra=""):
    """Return a face-down card."""
    if not label:  # decorative (the face beside it tells)
        return '<div%s></div>' % attrs(class_="card back" + (" " + extra if extra else ""), aria_hidden="true")
    return '<div%s></div>' % attrs(class_="card back" + (" " + extra if extra else ""),
                                   role="img", aria_label=label)
