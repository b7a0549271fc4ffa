package dev.redrive.core.sweeper;

import java.util.List;

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
}
