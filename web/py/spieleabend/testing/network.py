"""A TCP line between one device and the live server that a test cuts, as a phone loses its network."""

import socket
import struct
import threading


class CuttableLine:
    """A TCP line between one device and the live server that a test cuts, as a phone loses its network.

    Chromium's offline emulation leaves an open websocket alone; a cut line resets every connection
    (the page sees its websocket close with 1006, as on a dropped Wi-Fi) and refuses new ones until mended.
    A silenced line drops everything either way and closes nothing (a network that went quiet: neither
    end is told, only a heartbeat notices); new connections then wait unanswered until it is mended.
    """

    def __init__(self, server_url):
        self.target = ("127.0.0.1", int(server_url.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.connections = []
        self.cut_off = False
        self.silent = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # the line was closed
            if self.cut_off:
                reset(client)
                continue
            if self.silent:
                with self.lock:
                    self.connections.append(client)  # accepted, never answered
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                reset(client)
                continue
            with self.lock:
                self.connections += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if not self.silent:
                    sink.sendall(data)
        except OSError:
            pass
        if self.silent:
            return  # the other end hears nothing of it either (mend resets both)
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        """Reset every open connection and refuse new ones."""
        with self.lock:
            self.cut_off = True
            connections, self.connections = self.connections, []
        for connection in connections:
            reset(connection)

    def silence(self):
        """Drop everything either way from now on, closing nothing (until `mend`)."""
        self.silent = True

    def mend(self):
        """Let new connections through again; those a silence left hanging are reset (they are dead at the server)."""
        with self.lock:
            hanging = self.connections if self.silent else []
            if self.silent:
                self.connections = []
            self.cut_off = False
            self.silent = False
        for connection in hanging:
            reset(connection)

    def close(self):
        self.listener.close()
        self.cut()


def reset(connection):
    """Close a socket with a TCP reset (no orderly goodbye), as a lost network looks to the other end."""
    try:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.shutdown(socket.SHUT_RD)  # wakes a pump thread blocked on it; sends nothing
    except OSError:
        pass
    connection.close()
