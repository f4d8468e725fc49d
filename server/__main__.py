"""Run the app: `python -m server [--host HOST] [--port PORT] [--public-url URL]`."""

import argparse

from server import create_app
from server.rooms_api import lan_address


def main(argv=None):
    """Parse the options, print where to open the app and serve it."""
    parser = argparse.ArgumentParser(description="Spieleabend: serve the app and the room relay.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: this machine and the LAN)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--public-url", default=None,
                        help="address for room join links and QR codes, e.g. https://karten.example.org "
                             "(default: this machine's LAN address)")
    args = parser.parse_args(argv)
    app = create_app({"PUBLIC_URL": args.public_url} if args.public_url else None)
    print("Spieleabend läuft / is running:")
    print("  auf diesem Gerät / on this device:  http://localhost:%d/" % args.port)
    if args.host in ("0.0.0.0", "::"):
        address = lan_address()
        if address:
            print("  für Handys im WLAN / phones on the LAN:  http://%s:%d/" % (address, args.port))
    if args.public_url:
        print("  Einladungslinks / join links:  %s" % args.public_url)
    print("Beenden mit Strg+C / stop with Ctrl+C", flush=True)
    app.run(host=args.host, port=args.port, threaded=True, debug=False)


if __name__ == "__main__":
    main()
