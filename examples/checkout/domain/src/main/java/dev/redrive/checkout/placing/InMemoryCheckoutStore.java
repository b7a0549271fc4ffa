package dev.redrive.checkout.placing;

import dev.redrive.checkout.placing.CheckoutAttempt.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The in-memory fake of the checkout store: the same rules as DynamoDB under one lock. */
public final class InMemoryCheckoutStore implements CheckoutStore, Outbox {

    private record Stock(long available, long unitPriceMinor, String currency) {}

    private record Held(PlacedOrder.PricedLine line, boolean confirmed, boolean released) {}

    private final Map<String, CheckoutAttempt> attempts = new HashMap<>();
    private final Map<String, Stock> stock = new HashMap<>();
    private final Map<String, Map<String, Held>> reservations = new HashMap<>();
    private final Map<String, PlacedOrder> orders = new HashMap<>();
    private final Map<String, List<OutboxEvent>> outbox = new HashMap<>();
    private final Map<String, Instant> published = new HashMap<>();

    @Override
    public synchronized Begin begin(String key, String fingerprint, String orderId, Instant now, Duration lease) {
        CheckoutAttempt old = attempts.get(key);
        if (old == null) {
            CheckoutAttempt started =
                    new CheckoutAttempt(key, fingerprint, orderId, Status.STARTED, 1, now.plus(lease), null, null, now);
            attempts.put(key, started);
            return new Started(started);
        }
        if (!old.fingerprint().equals(fingerprint)) {
            return new KeyReused(old);
        }
        if (old.status().finished()) {
            return new Finished(old);
        }
        if (old.status() == Status.VOIDING) {
            return new Voiding(old);
        }
        if (now.isBefore(old.leaseUntil())) {
            return new InFlight(old);
        }
        CheckoutAttempt taken = new CheckoutAttempt(
                key,
                fingerprint,
                old.orderId(),
                old.status(),
                old.token() + 1,
                now.plus(lease),
                old.authorizationId(),
                null,
                old.startedAt());
        attempts.put(key, taken);
        return new Started(taken);
    }

    @Override
    public synchronized Reservation reserve(String orderId, List<OrderLine> lines, String currency, Instant now) {
        Map<String, Held> held = reservations.get(orderId);
        if (held != null && !held.isEmpty()) {
            return held.values().stream().anyMatch(Held::released)
                    ? new Released()
                    : new Reserved(held.values().stream().map(Held::line).toList());
        }
        List<String> short_ = new ArrayList<>();
        for (OrderLine l : lines) {
            Stock s = stock.get(l.sku());
            if (s == null || !s.currency().equals(currency) || s.available() < l.quantity()) {
                short_.add(l.sku());
            }
        }
        if (!short_.isEmpty()) {
            return new OutOfStock(short_);
        }
        Map<String, Held> made = new LinkedHashMap<>();
        for (OrderLine l : lines) {
            Stock s = stock.get(l.sku());
            stock.put(l.sku(), new Stock(s.available() - l.quantity(), s.unitPriceMinor(), s.currency()));
            made.put(
                    l.sku(),
                    new Held(new PlacedOrder.PricedLine(l.sku(), l.quantity(), s.unitPriceMinor()), false, false));
        }
        reservations.put(orderId, made);
        return new Reserved(made.values().stream().map(Held::line).toList());
    }

    @Override
    public synchronized Optional<CheckoutAttempt> voiding(String key, long token, Instant now, Duration lease) {
        CheckoutAttempt a = attempts.get(key);
        if (a == null || a.token() != token || a.status().finished()) {
            return Optional.empty();
        }
        CheckoutAttempt taken = new CheckoutAttempt(
                key,
                a.fingerprint(),
                a.orderId(),
                Status.VOIDING,
                a.token() + 1,
                now.plus(lease),
                a.authorizationId(),
                null,
                a.startedAt());
        attempts.put(key, taken);
        return Optional.of(taken);
    }

    @Override
    public synchronized boolean release(String key, long token, String orderId, Instant now) {
        CheckoutAttempt a = attempts.get(key);
        if (a == null || a.token() != token) {
            return false;
        }
        Map<String, Held> held = reservations.getOrDefault(orderId, Map.of());
        held.replaceAll((sku, h) -> {
            if (h.confirmed() || h.released()) {
                return h;
            }
            Stock s = stock.get(sku);
            stock.put(sku, new Stock(s.available() + h.line().quantity(), s.unitPriceMinor(), s.currency()));
            return new Held(h.line(), false, true);
        });
        return true;
    }

    @Override
    public synchronized boolean authorized(String key, long token, String authorizationId) {
        CheckoutAttempt a = attempts.get(key);
        if (a == null || a.token() != token || !placeable(a)) {
            return false;
        }
        attempts.put(key, with(a, Status.AUTHORIZED, a.leaseUntil(), authorizationId, null));
        return true;
    }

    @Override
    public synchronized boolean finish(String key, long token, Status status, String reason) {
        if (!status.finished() || status == Status.PLACED) {
            throw new IllegalArgumentException("finish ends an attempt without an order, not as " + status);
        }
        CheckoutAttempt a = attempts.get(key);
        if (a == null || a.token() != token || a.status() == Status.PLACED) {
            return false;
        }
        attempts.put(key, with(a, status, a.leaseUntil(), a.authorizationId(), reason));
        return true;
    }

    @Override
    public synchronized void letGo(String key, long token, Instant leaseEnd) {
        CheckoutAttempt a = attempts.get(key);
        if (a != null && a.token() == token && !a.status().finished()) {
            attempts.put(key, with(a, a.status(), leaseEnd, a.authorizationId(), null));
        }
    }

    @Override
    public synchronized boolean place(String key, long token, PlacedOrder order, OutboxEvent event) {
        CheckoutAttempt a = attempts.get(key);
        if (a == null || a.token() != token || !placeable(a) || orders.containsKey(order.orderId())) {
            return false;
        }
        Map<String, Held> held = reservations.getOrDefault(order.orderId(), Map.of());
        if (held.isEmpty() || held.values().stream().anyMatch(h -> h.released() || h.confirmed())) {
            return false;
        }
        orders.put(order.orderId(), order);
        outbox.computeIfAbsent(order.orderId(), o -> new ArrayList<>()).add(event);
        held.replaceAll((sku, h) -> new Held(h.line(), true, false));
        attempts.put(key, with(a, Status.PLACED, a.leaseUntil(), order.authorizationId(), null));
        return true;
    }

    @Override
    public synchronized List<CheckoutAttempt> abandoned(Instant leaseEndedBefore, int limit) {
        return attempts.values().stream()
                .filter(a -> !a.status().finished() && a.leaseUntil().isBefore(leaseEndedBefore))
                .sorted(java.util.Comparator.comparing(CheckoutAttempt::leaseUntil))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Optional<PlacedOrder> order(String orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }

    @Override
    public synchronized List<OutboxEvent> outbox(String orderId) {
        return List.copyOf(outbox.getOrDefault(orderId, List.of()));
    }

    @Override
    public synchronized void stock(String sku, long available, long unitPriceMinor, String currency) {
        stock.put(sku, new Stock(available, unitPriceMinor, currency));
    }

    @Override
    public synchronized long available(String sku) {
        Stock s = stock.get(sku);
        return s == null ? 0 : s.available();
    }

    @Override
    public synchronized void markPublished(String orderId, long sequence, Instant now) {
        boolean exists = outbox.getOrDefault(orderId, List.of()).stream().anyMatch(e -> e.sequence() == sequence);
        if (!exists) {
            throw new IllegalArgumentException("no outbox event " + sequence + " of order " + orderId);
        }
        published.putIfAbsent(orderId + "#" + sequence, now);
    }

    @Override
    public synchronized void markAllPublished(List<OutboxEvent> events, Instant now) {
        for (OutboxEvent e : events) {
            if (outbox.getOrDefault(e.orderId(), List.of()).stream().noneMatch(o -> o.sequence() == e.sequence())) {
                throw new IllegalArgumentException("no outbox event " + e.sequence() + " of order " + e.orderId());
            }
        }
        events.forEach(e -> published.putIfAbsent(e.orderId() + "#" + e.sequence(), now));
    }

    @Override
    public synchronized List<OutboxEvent> unpublished(Instant writtenBefore, int limit) {
        return outbox.values().stream()
                .flatMap(List::stream)
                .filter(e -> !published.containsKey(e.orderId() + "#" + e.sequence()))
                .filter(e -> e.createdAt().isBefore(writtenBefore))
                .sorted(java.util.Comparator.comparing(OutboxEvent::createdAt))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Optional<Instant> publishedAt(String orderId, long sequence) {
        return Optional.ofNullable(published.get(orderId + "#" + sequence));
    }

    private static boolean placeable(CheckoutAttempt a) {
        return a.status() == Status.STARTED || a.status() == Status.AUTHORIZED;
    }

    private static CheckoutAttempt with(
            CheckoutAttempt a, Status status, Instant leaseUntil, String authorizationId, String reason) {
        return new CheckoutAttempt(
                a.key(),
                a.fingerprint(),
                a.orderId(),
                status,
                a.token(),
                leaseUntil,
                authorizationId,
                reason,
                a.startedAt());
    }
}
