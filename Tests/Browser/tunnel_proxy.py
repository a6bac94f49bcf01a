"""A TCP proxy that stands between Chromium and quickcart and misbehaves as a bad network does,
for what the DevTools Protocol cannot emulate: a connection that goes silent, or an answer lost
after the shop had the request.

- `forget()`: every open connection goes silent, in both directions, with no FIN and no RST (a
  carrier's NAT that forgot the flows, a train in a tunnel); new connections are held unanswered.
  `restore()` then lets new connections through, as the NAT does. A forgotten connection stays
  silent until the browser writes on it again: then it is reset, as the shop resets a connection
  it does not know when the NAT gives the browser's packets a new mapping.
- `cut_answers()`: a request still reaches the shop, but an answer that starts `HTTP/1.1 303` (a
  post's) is dropped and the connection reset, so the browser never learns what happened.
"""
import asyncio
import socket
import threading


class TunnelProxy:
    """Listens on 127.0.0.1:`port` (a free one) and forwards to 127.0.0.1:`target_port`."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.mode = "pass"
        self.generation = 0      # bumps at each forget(): connections of an older one are silent
        self.held = []           # forgotten sockets, kept open (closing them would send a FIN)
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait()
        self.url = f"http://127.0.0.1:{self.port}"

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        ready.set()
        self.loop.run_forever()

    def forget(self):
        self.mode = "forget"
        self.generation += 1

    def cut_answers(self):
        self.mode = "cut"

    def restore(self):
        self.mode = "pass"

    def close(self):
        def stop():
            self.server.close()
            for writer in self.held:
                writer.transport.abort()
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
            self.loop.call_soon(self.loop.stop)  # after the cancelled tasks have ended
        self.loop.call_soon_threadsafe(stop)
        self.thread.join(timeout=5)
        self.loop.close()

    async def _connection(self, client_reader, client_writer):
        while self.mode == "forget":
            await asyncio.sleep(0.05)   # no answer while the tunnel lasts
        generation = self.generation
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_writer.close()
            return
        self.held += [client_writer, server_writer]

        def reset(writer):
            # SO_LINGER 0: the close resets the connection rather than ending it.
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            writer.transport.abort()

        async def pipe(reader, writer, to_client):
            try:
                while True:
                    data = await reader.read(65536)
                    if not data:
                        break
                    if self.generation != generation:
                        if to_client or self.mode == "forget":
                            continue  # forgotten: what comes is dropped, and nothing is closed
                        reset(client_writer)
                        return
                    if to_client and self.mode == "cut" and data.startswith(b"HTTP/1.1 303"):
                        reset(client_writer)
                        server_writer.close()
                        return
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError, asyncio.CancelledError):
                return
            if self.generation == generation:
                writer.close()

        try:
            await asyncio.gather(pipe(client_reader, server_writer, False), pipe(server_reader, client_writer, True))
        except asyncio.CancelledError:
            pass
