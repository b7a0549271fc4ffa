package dev.redrive.localrun.bench;

/**
 * One measurement of the consumer at a number of sandboxes and a queue depth, over a fixed window of steady state.
 *
 * @param depth            visible messages the queue was held at
 * @param sandboxes        the consumer's sandboxes (and the mapping's concurrency)
 * @param seconds          the window
 * @param messages         messages handled and deleted in the window
 * @param dynamoDbCalls    DynamoDB calls the sandboxes made in the window (their counting proxies)
 * @param dynamoDbMillis   mean time DynamoDB took to answer a call, as the proxies saw it
 * @param otherCalls       S3 and SQS calls the sandboxes made in the window
 * @param timeouts         invocations that ran into the function's timeout in the window (each replaces a sandbox)
 * @param cpu              cores used in the window: the machine, moto, this JVM, the sandboxes
 * @param loadAverage      the machine's one-minute load average at the window's end
 */
record ScalingPoint(
        int depth,
        int sandboxes,
        double seconds,
        long messages,
        long dynamoDbCalls,
        double dynamoDbMillis,
        long otherCalls,
        long timeouts,
        CpuMeter.Use cpu,
        String loadAverage) {

    double messagesPerSecond() {
        return messages / seconds;
    }

    double dynamoDbCallsPerMessage() {
        return messages == 0 ? Double.NaN : (double) dynamoDbCalls / messages;
    }
}
