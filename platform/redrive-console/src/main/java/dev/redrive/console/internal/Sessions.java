package dev.redrive.console.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The console's secrets: the one-time token printed in the opening URL, exchanged once for a session (a cookie), and
 * each session's CSRF token, which every write must carry. Tokens are 256 random bits from {@link SecureRandom},
 * compared in constant time.
 */
public final class Sessions {

    /** One browser's session: its id (the cookie) and the CSRF token its writes must carry. */
    public record Session(String id, String csrf) {}

    private final SecureRandom random = new SecureRandom();
    private final AtomicReference<String> oneTimeToken = new AtomicReference<>(newToken());
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** The token of the opening URL, until it is used. */
    public String oneTimeToken() {
        String token = oneTimeToken.get();
        return token == null ? "" : token;
    }

    /** A new session for {@code token} if it is the unused one-time token (it is then used up), else empty. */
    public Optional<Session> open(String token) {
        String expected = oneTimeToken.get();
        if (token == null || expected == null || !same(token, expected)) {
            return Optional.empty();
        }
        if (!oneTimeToken.compareAndSet(expected, null)) {
            return Optional.empty();
        }
        Session session = new Session(newToken(), newToken());
        sessions.put(session.id(), session);
        return Optional.of(session);
    }

    /** The session of this cookie value, if there is one. */
    public Optional<Session> find(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(sessions.get(id));
    }

    /** Ends a session. */
    public void close(Session session) {
        sessions.remove(session.id());
    }

    /** Whether {@code given} is {@code session}'s CSRF token. */
    public static boolean csrfMatches(Session session, String given) {
        return given != null && same(given, session.csrf());
    }

    private static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private String newToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
