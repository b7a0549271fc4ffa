package dev.redrive.core.operator;

import dev.redrive.core.failure.FailureClass;
import dev.redrive.core.quarantine.QuarantineRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Dead letters grouped by error type and reason, the way ServicePulse groups failed messages by exception type and
 * message: one row per distinct failure, largest group first. A dead letter is "seen" when it last failed (or, when
 * no failure was recorded, when it arrived in quarantine). Every operator interface groups this way ({@code redrive
 * list --group}, the console's Groups page), so a group counts the same wherever it is read.
 */
public final class FailureGroups {

    private FailureGroups() {}

    /**
     * One group: the dead letters that failed with one error type and reason.
     *
     * @param sampleId the oldest member, to {@code redrive show}
     * @param versions the consumers' build versions its members failed in, sorted (those recorded; see
     *                 {@link QuarantineRecord#buildVersion()})
     */
    public record Group(
            String errorType,
            String reason,
            int count,
            Set<FailureClass> classes,
            Instant firstSeen,
            Instant lastSeen,
            String sampleId,
            SortedSet<String> versions) {

        /** A group whose members recorded no build version. */
        public Group(
                String errorType,
                String reason,
                int count,
                Set<FailureClass> classes,
                Instant firstSeen,
                Instant lastSeen,
                String sampleId) {
            this(errorType, reason, count, classes, firstSeen, lastSeen, sampleId, new TreeSet<>());
        }

        public Group {
            versions = Collections.unmodifiableSortedSet(new TreeSet<>(versions));
        }
    }

    /** The groups of {@code records}, largest first (ties: the earliest first seen first). */
    public static List<Group> of(List<QuarantineRecord> records) {
        Map<List<String>, List<QuarantineRecord>> byFailure = new LinkedHashMap<>();
        for (QuarantineRecord r : records) {
            byFailure
                    .computeIfAbsent(
                            List.of(
                                    r.classification().errorType(),
                                    r.classification().reason()),
                            k -> new ArrayList<>())
                    .add(r);
        }
        List<Group> groups = new ArrayList<>();
        byFailure.forEach((key, members) -> {
            Set<FailureClass> classes = EnumSet.noneOf(FailureClass.class);
            Instant first = null;
            Instant last = null;
            QuarantineRecord sample = members.get(0);
            SortedSet<String> versions = new TreeSet<>();
            for (QuarantineRecord r : members) {
                if (!r.buildVersion().isEmpty()) {
                    versions.add(r.buildVersion());
                }
                classes.add(r.classification().failureClass());
                Instant firstSeen = r.firstFailedAt() != null ? r.firstFailedAt() : r.arrivedAt();
                Instant lastSeen = r.lastFailedAt() != null ? r.lastFailedAt() : r.arrivedAt();
                first = first == null || firstSeen.isBefore(first) ? firstSeen : first;
                last = last == null || lastSeen.isAfter(last) ? lastSeen : last;
                sample = r.arrivedAt().isBefore(sample.arrivedAt()) ? r : sample;
            }
            groups.add(new Group(key.get(0), key.get(1), members.size(), classes, first, last, sample.id(), versions));
        });
        groups.sort(Comparator.comparingInt(Group::count).reversed().thenComparing(Group::firstSeen));
        return groups;
    }
}
