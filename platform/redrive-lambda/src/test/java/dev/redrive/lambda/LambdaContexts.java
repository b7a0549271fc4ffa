package dev.redrive.lambda;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

/** Lambda contexts for tests. */
final class LambdaContexts {

    private LambdaContexts() {}

    /** An invocation whose deadline is {@code millis} from now, counting down as Lambda's context does. */
    static Context deadlineIn(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        return remaining(() -> (int) (deadline - System.currentTimeMillis()));
    }

    /** An invocation whose context answers {@code remainingMillis} for its remaining time, whatever Lambda would. */
    static Context remaining(java.util.function.IntSupplier remainingMillis) {
        return new Context() {
            public String getAwsRequestId() {
                return "req-1";
            }

            public String getLogGroupName() {
                return "";
            }

            public String getLogStreamName() {
                return "";
            }

            public String getFunctionName() {
                return "consumer";
            }

            public String getFunctionVersion() {
                return "$LATEST";
            }

            public String getInvokedFunctionArn() {
                return "";
            }

            public CognitoIdentity getIdentity() {
                return null;
            }

            public ClientContext getClientContext() {
                return null;
            }

            public int getRemainingTimeInMillis() {
                return remainingMillis.getAsInt();
            }

            public int getMemoryLimitInMB() {
                return 512;
            }

            public LambdaLogger getLogger() {
                return null;
            }
        };
    }
}
