package dev.redrive.functions.sweeper;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.redrive.core.names.RedriveNames.Handlers;
import dev.redrive.sweeper.DeadLetterSweeperHandler;
import dev.redrive.sweeper.SweepRun;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Lambda handler {@code dlq-sweeper} of the example's one Quarkus artifact: {@code redrive-sweeper}'s handler on the
 * run the CDI producers wire ({@link SweeperRuntime}), so the sweep is the one {@link SweepRun} the standalone
 * sweeper function runs too.
 *
 * <p>The schedule event is read as a plain map: Quarkus' Lambda JSON mapper drops {@code detail-type} from
 * {@code ScheduledEvent}, and nothing in it is needed.
 */
@Named(Handlers.DLQ_SWEEPER)
@Singleton
public class SweeperHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {

    private final DeadLetterSweeperHandler handler;

    public SweeperHandler(SweepRun run) {
        this.handler = new DeadLetterSweeperHandler(run);
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        return handler.handleRequest(event, context);
    }
}
