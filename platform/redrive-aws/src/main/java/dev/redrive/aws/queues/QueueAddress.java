package dev.redrive.aws.queues;

/**
 * Reads a queue ARN ({@code arn:aws:sqs:region:account:name}) as the Lambda event source gives it.
 */
public record QueueAddress(String region, String accountId, String name) {

    public static QueueAddress fromArn(String arn) {
        String[] parts = arn == null ? new String[0] : arn.split(":", 6);
        if (parts.length != 6 || !"arn".equals(parts[0]) || !"sqs".equals(parts[2]) || parts[5].isBlank()) {
            throw new IllegalArgumentException("not an SQS queue ARN: " + arn);
        }
        return new QueueAddress(parts[3], parts[4], parts[5]);
    }

    /** The queue name from an ARN, a URL or a bare name. */
    public static String nameOf(String arnUrlOrName) {
        if (arnUrlOrName.startsWith("arn:")) {
            return fromArn(arnUrlOrName).name();
        }
        int slash = arnUrlOrName.lastIndexOf('/');
        return slash >= 0 ? arnUrlOrName.substring(slash + 1) : arnUrlOrName;
    }

    public boolean fifo() {
        return name.endsWith(".fifo");
    }
}
