package dev.redrive.cdk.monitoring;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awscdk.services.sns.ITopic;

/**
 * Where {@link Monitoring}'s alarms go: a topic of its own (encrypted with the monitoring's key, admitting only this
 * account's alarms named {@code <prefix>-*}) or an existing one, and who is subscribed to it. An existing topic keeps
 * its own policy: it must let {@code cloudwatch.amazonaws.com} publish (and, when encrypted, use its key); this construct
 * cannot change an imported topic's policy.
 *
 * @param existingTopic   an existing topic to notify instead of making one; empty: a topic is made
 * @param emailAddresses  email addresses subscribed to the topic (each confirms the subscription SNS mails it)
 * @param httpsEndpoints  HTTPS endpoints subscribed to the topic (a pager's webhook; each must confirm the
 *                        subscription SNS posts)
 */
public record AlarmNotifications(
        Optional<ITopic> existingTopic, List<String> emailAddresses, List<String> httpsEndpoints) {

    /** A topic of its own, nobody subscribed: subscribe to {@link Monitoring#alarmTopic()} yourself. */
    public static final AlarmNotifications NONE = new AlarmNotifications(Optional.empty(), List.of(), List.of());

    private static final Pattern EMAIL = Pattern.compile("[^@\\s,]+@[^@\\s,]+\\.[^@\\s,]+");
    private static final Pattern HTTPS = Pattern.compile("https://[^\\s,]+");

    /** Checks every address and endpoint; a bad one is refused naming it. */
    public AlarmNotifications {
        Objects.requireNonNull(existingTopic, "existingTopic");
        emailAddresses = List.copyOf(emailAddresses);
        httpsEndpoints = List.copyOf(httpsEndpoints);
        for (String email : emailAddresses) {
            if (!EMAIL.matcher(email).matches()) {
                throw new IllegalArgumentException("alarm email '" + email + "' is not an email address");
            }
        }
        for (String url : httpsEndpoints) {
            if (!HTTPS.matcher(url).matches()) {
                throw new IllegalArgumentException("alarm endpoint '" + url + "' is not an https:// URL (SNS sends"
                        + " alarms over HTTPS only here: an http endpoint would carry them in clear text)");
            }
        }
    }

    /** A topic of its own with these subscribers. */
    public static AlarmNotifications subscribers(List<String> emailAddresses, List<String> httpsEndpoints) {
        return new AlarmNotifications(Optional.empty(), emailAddresses, httpsEndpoints);
    }

    /** These subscribers on {@code topic} instead of a topic of its own. */
    public AlarmNotifications onTopic(ITopic topic) {
        return new AlarmNotifications(Optional.of(topic), emailAddresses, httpsEndpoints);
    }
}
