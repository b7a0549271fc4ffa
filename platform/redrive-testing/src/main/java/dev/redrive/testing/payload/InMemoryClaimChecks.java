package dev.redrive.testing.payload;

import dev.redrive.core.payload.ClaimCheckForbidden;
import dev.redrive.core.payload.ClaimCheckMissing;
import dev.redrive.core.payload.ClaimChecks;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory fake of the claim-check store: payloads in a map, pointers {@code {"claimCheck":"<id>"}} marked by the
 * attribute {@value #ATTRIBUTE} (the payload's size in bytes), the same rules as on S3.
 */
public final class InMemoryClaimChecks implements ClaimChecks {

    /** The attribute that marks a claim check of this fake. */
    public static final String ATTRIBUTE = "claim-check-size";

    private static final String PREFIX = "{\"claimCheck\":\"";
    private static final String SUFFIX = "\"}";

    private final Map<String, String> payloads = new ConcurrentHashMap<>();
    private final boolean withoutListBucket;

    /** A store that says when a payload is gone, as S3 does to a reader allowed {@code s3:ListBucket} (404). */
    public InMemoryClaimChecks() {
        this(false);
    }

    private InMemoryClaimChecks(boolean withoutListBucket) {
        this.withoutListBucket = withoutListBucket;
    }

    /**
     * A store that answers as S3 does to a reader without {@code s3:ListBucket}: a payload that is gone is refused
     * ({@link ClaimCheckForbidden}, S3's 403 AccessDenied), not reported gone.
     */
    public static InMemoryClaimChecks withoutListBucket() {
        return new InMemoryClaimChecks(true);
    }

    @Override
    public boolean isClaimCheck(String body, Map<String, String> attributes) {
        return attributes.containsKey(ATTRIBUTE);
    }

    @Override
    public String payloadOf(String body, Map<String, String> attributes) {
        if (!isClaimCheck(body, attributes)) {
            return body;
        }
        String id = idOf(body);
        String payload = payloads.get(id);
        if (payload == null && withoutListBucket) {
            throw new ClaimCheckForbidden(
                    "the payload of claim check " + id + " cannot be read (AccessDenied): it is gone, or this reader "
                            + "may not read it",
                    null);
        }
        if (payload == null) {
            throw new ClaimCheckMissing("the payload of claim check " + id + " is gone");
        }
        return payload;
    }

    @Override
    public ClaimCheck checkIn(String payload) {
        String id = UUID.randomUUID().toString();
        payloads.put(id, payload);
        return new ClaimCheck(
                PREFIX + id + SUFFIX,
                Map.of(ATTRIBUTE, Integer.toString(payload.getBytes(StandardCharsets.UTF_8).length)));
    }

    @Override
    public void discard(String body, Map<String, String> attributes) {
        if (isClaimCheck(body, attributes)) {
            payloads.remove(idOf(body));
        }
    }

    @Override
    public Optional<String> locationOf(String body, Map<String, String> attributes) {
        if (!isClaimCheck(body, attributes)) {
            return Optional.empty();
        }
        try {
            return Optional.of("memory:" + idOf(body));
        } catch (ClaimCheckMissing notAPointer) {
            return Optional.empty();
        }
    }

    /** How many payloads are kept. */
    public int size() {
        return payloads.size();
    }

    private static String idOf(String body) {
        if (body == null || !body.startsWith(PREFIX) || !body.endsWith(SUFFIX)) {
            throw new ClaimCheckMissing("the message is marked as a claim check but its body is not a pointer");
        }
        return body.substring(PREFIX.length(), body.length() - SUFFIX.length());
    }
}
