package dev.redrive.core.sweeper;

import dev.redrive.core.consumer.MessageAttribute;
import dev.redrive.testing.sweeper.ArchiveStoreContract;
import dev.redrive.testing.sweeper.InMemoryArchiveStore;
import java.util.List;
import java.util.Map;

class InMemoryArchiveStoreTest extends ArchiveStoreContract {
    private final InMemoryArchiveStore archive = new InMemoryArchiveStore();

    @Override
    protected ArchiveStore newStore() {
        return archive;
    }

    @Override
    protected List<ArchivedLine> read(String ref) {
        return archive.objects().get(ref).stream()
                .map(e -> new ArchivedLine(
                        e.record().id(),
                        e.record().state().name(),
                        e.body(),
                        e.archiveReason(),
                        e.record().audit().size(),
                        e.claimCheck()))
                .toList();
    }

    @Override
    protected List<Map<String, MessageAttribute>> attributesOf(String ref) {
        return archive.objects().get(ref).stream()
                .map(e -> e.record().attributes())
                .toList();
    }
}
