package dev.redrive.testing.localaws;

import java.util.concurrent.CountDownLatch;

/**
 * Starts local AWS and keeps it up until interrupted, printing the endpoints as environment variables, for using the
 * AWS CLI or an SDK by hand against it.
 */
public final class LocalAwsMain {
    private LocalAwsMain() {}

    public static void main(String[] args) throws InterruptedException {
        LocalAws aws;
        try {
            aws = LocalAws.shared();
        } catch (LocalAwsException e) {
            System.err.println("redrive: local AWS could not start: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println("# Local AWS is up: " + aws.describe());
        aws.environment().forEach((k, v) -> System.out.println("export " + k + "=" + v));
        System.out.println("# Ctrl-C stops it.");
        new CountDownLatch(1).await();
    }
}
