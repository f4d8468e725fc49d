"""The browser shell: renders views as HTML and turns taps into actions; no rule is decided here."""
