"""Redrive's moto launcher: moto's server with every request serialized behind one lock.

moto's stock threaded server is not atomic: two concurrent conditional writes on one DynamoDB key can both
succeed (measured: several violations in 200 rounds x 8 threads; none with this lock). Redrive's correctness
tests depend on conditional writes being atomic, as they are on AWS, so every request runs under one lock.

Binds 127.0.0.1 on a free port chosen by the OS and prints one line, "REDRIVE_MOTO_READY port=<port>", on stdout
once it accepts connections. Exits when its stdin reaches end-of-file, so it never outlives the JVM that started
it, even when that JVM is killed.
"""
import logging
import os
import sys
import threading


def _die_with_parent():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    try:
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from werkzeug.serving import make_server, WSGIRequestHandler
    except ImportError as e:  # the Java side checks first; this is the last line of defence
        sys.stderr.write("REDRIVE_MOTO_MISSING moto server is not importable (%s); pip install 'moto[server]'\n" % e)
        sys.exit(3)

    threading.Thread(target=_die_with_parent, name="die-with-parent", daemon=True).start()

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def serialized(environ, start_response):
        # Hold the lock until the whole response body is produced: moto may build it lazily.
        with lock:
            response = app(environ, start_response)
            try:
                body = b"".join(response)
            finally:
                close = getattr(response, "close", None)
                if close is not None:
                    close()
        return [body]

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    host = os.environ.get("REDRIVE_MOTO_HOST", "127.0.0.1")
    server = make_server(host, 0, serialized, threaded=True, request_handler=QuietHandler)
    os.environ["MOTO_PORT"] = str(server.server_port)
    sys.stdout.write("REDRIVE_MOTO_READY port=%d\n" % server.server_port)
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
