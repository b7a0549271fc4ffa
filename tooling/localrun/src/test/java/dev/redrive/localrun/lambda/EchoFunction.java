package dev.redrive.localrun.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The smallest Java function: answers every invocation with its payload. Run under AWS's runtime interface client
 * with the managed runtime's flags, it starts in a fraction of the packaged functions' time, so a test can start many
 * sandboxes of it; the client loads its JNI library exactly as it does for the real functions.
 */
public final class EchoFunction implements RequestStreamHandler {

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        input.transferTo(output);
    }
}
