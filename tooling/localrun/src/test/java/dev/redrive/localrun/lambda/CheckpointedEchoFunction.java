package dev.redrive.localrun.lambda;

import com.amazonaws.services.lambda.crac.Context;
import com.amazonaws.services.lambda.crac.Core;
import com.amazonaws.services.lambda.crac.Resource;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A function with checkpoint hooks, registered with the runtime interface client's own checkpoint coordinator (the
 * one org.crac is routed to on Lambda): it answers every invocation with which of its hooks ran, in order.
 */
public final class CheckpointedEchoFunction implements RequestStreamHandler {

    private static final StringBuilder HOOKS = new StringBuilder();

    private static final Resource RECORDER = new Resource() {
        @Override
        public void beforeCheckpoint(Context<? extends Resource> context) {
            HOOKS.append("beforeCheckpoint;");
        }

        @Override
        public void afterRestore(Context<? extends Resource> context) {
            HOOKS.append("afterRestore;");
        }
    };

    static {
        Core.getGlobalContext().register(RECORDER);
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, com.amazonaws.services.lambda.runtime.Context c)
            throws java.io.IOException {
        input.readAllBytes();
        output.write(("\"" + HOOKS + "\"").getBytes(StandardCharsets.UTF_8));
    }
}
