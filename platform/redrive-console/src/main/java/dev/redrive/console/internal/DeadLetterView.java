package dev.redrive.console.internal;

import java.util.List;

/**
 * What the dead-letter page ({@code dead-letter.jte}) renders: plain values, formatted already.
 *
 * @param payload    the payload section
 * @param attributes the message attributes, by name
 * @param claim      its claim, in words
 * @param checks     what the schema and idempotency checks would answer now (a dry-run replay of this id)
 * @param timeline   everything that happened to it, oldest first
 * @param archivable whether the archive form is shown
 */
public record DeadLetterView(
        String id,
        String state,
        String consumer,
        String sourceQueue,
        String deadLetterQueue,
        String sourceMessageId,
        String idempotencyKey,
        String arrivedAt,
        String age,
        String failureClass,
        String errorType,
        String reason,
        String dependency,
        String firstFailedAt,
        String lastFailedAt,
        int receiveCount,
        int replayCount,
        String note,
        Payload payload,
        List<Attribute> attributes,
        Claim claim,
        Checks checks,
        List<Event> timeline,
        boolean archivable) {

    /**
     * The payload as shown.
     *
     * @param where      where it is kept (inline, aside, archived)
     * @param basis      how its sensitive fields were found, in words
     * @param lines      its pretty-printed lines (empty when withheld or gone); a line holding a redacted value is marked
     * @param sensitive  the paths of its sensitive values (and of secret-looking attributes): redacted, or revealed
     * @param withheld   nothing of it is shown (its sensitive fields cannot be told apart)
     * @param revealedTo who it was revealed to on this page (empty when redacted)
     * @param revealable whether the reveal form is shown (something is hidden, and the console may write)
     */
    public record Payload(
            String where,
            String basis,
            List<Line> lines,
            List<String> sensitive,
            boolean withheld,
            String revealedTo,
            boolean revealable) {

        /** Whether this page shows it in full. */
        public boolean revealed() {
            return !revealedTo.isEmpty();
        }
    }

    /** One line of the pretty-printed payload; {@code redacted} when it holds a redacted value. */
    public record Line(String text, boolean redacted) {}

    /** One message attribute: its value redacted when its name looks secret, unless revealed. */
    public record Attribute(String name, String type, String value, boolean redacted) {}

    /**
     * Its idempotency claim.
     *
     * @param applied      "applied", "not applied", or why it cannot be told
     * @param status       the claim's status, or "–"
     * @param fencingToken the attempts made (the token), or "–"
     * @param failures     the failures recorded, or "–"
     * @param lastFailure  the last recorded failure in words, or "–"
     */
    public record Claim(
            String key, String applied, String status, String fencingToken, String failures, String lastFailure) {}

    /**
     * What a replay of it would do now.
     *
     * @param verdict  the outcome's kind, in a few words
     * @param describe the outcome in full ({@code ReplayOutcome.describe()})
     */
    public record Checks(String verdict, String describe) {}

    /**
     * One event of its timeline.
     *
     * @param kind  failure, arrival, state change, replay, returned, archived, payload revealed...
     * @param what  what happened
     * @param who   who did it (a person, the automation, the consumer)
     * @param why   why, in words
     */
    public record Event(String at, String kind, String what, String who, String why) {}
}
