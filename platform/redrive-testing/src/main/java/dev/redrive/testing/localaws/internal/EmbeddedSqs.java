package dev.redrive.testing.localaws.internal;

import com.typesafe.config.ConfigFactory;
import dev.redrive.testing.localaws.LocalAwsException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import scala.concurrent.Await;

/**
 * SQS served by ElasticMQ inside this JVM, bound to 127.0.0.1 on a port the OS picks. Redrive policies
 * (maxReceiveCount), visibility changes, delays, FIFO queues and message move tasks all behave as on SQS.
 */
public final class EmbeddedSqs implements AutoCloseable {

    public static final String ACCOUNT_ID = "000000000000";

    private final ActorSystem actors;
    private final SQSRestServer server;
    private final URI endpoint;

    private EmbeddedSqs(ActorSystem actors, SQSRestServer server, URI endpoint) {
        this.actors = actors;
        this.server = server;
        this.endpoint = endpoint;
    }

    public static EmbeddedSqs start(String region) {
        // Daemon threads: an embedded SQS must never keep a finished JVM alive.
        ActorSystem actors = ActorSystem.create(
                "redrive-local-sqs",
                ConfigFactory.parseString(
                                "pekko.daemonic = on\npekko.loglevel = WARNING\npekko.stdout-loglevel = WARNING\n"
                                        + "pekko.log-dead-letters = off")
                        .withFallback(ConfigFactory.load()));
        try {
            SQSRestServer server = SQSRestServerBuilder.withActorSystem(actors)
                    .withInterface("127.0.0.1")
                    .withDynamicPort()
                    .withAWSRegion(region)
                    .withAWSAccountId(ACCOUNT_ID)
                    .start();
            int port = server.waitUntilStarted().localAddress().getPort();
            return new EmbeddedSqs(actors, server, URI.create("http://127.0.0.1:" + port));
        } catch (RuntimeException e) {
            actors.terminate();
            throw new LocalAwsException("ElasticMQ (embedded SQS) did not start: " + e.getMessage(), e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        try {
            server.stopAndWait();
        } catch (Exception ignored) {
            // shutting down anyway. Scala throws checked exceptions undeclared: a stop that outlasts its minute throws
            // java.util.concurrent.TimeoutException, which escaped a catch of RuntimeException and skipped the rest of
            // LocalAws.close (moto's among it)
        }
        actors.terminate();
        try {
            Await.ready(
                    actors.whenTerminated(),
                    scala.concurrent.duration.Duration.create(
                            Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS));
        } catch (Exception ignored) {
            // daemon threads; the JVM can exit regardless
        }
    }
}
