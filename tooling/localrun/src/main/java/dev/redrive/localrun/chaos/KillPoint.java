package dev.redrive.localrun.chaos;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * A named moment at which the chaos run can kill (SIGKILL) a function's sandbox: a consumer's {@link Step} or a
 * producer's {@link ProducerCrashPoint}. The fault plan keeps one kill rate per point, by its id, and the injections are
 * counted under it.
 */
public interface KillPoint {

    /** The command-line name: {@code --kill-at claim-write=0.01}. */
    String id();

    String description();

    /** Every point, the consumers' steps first. */
    static Stream<KillPoint> all() {
        return Stream.concat(Stream.of(Step.values()), Stream.of(ProducerCrashPoint.values()));
    }

    static Optional<KillPoint> byId(String id) {
        return all().filter(p -> p.id().equals(id)).findFirst();
    }

    /** The ids of every point, for messages that list them. */
    static String ids() {
        return String.join(", ", all().map(KillPoint::id).toList());
    }
}
