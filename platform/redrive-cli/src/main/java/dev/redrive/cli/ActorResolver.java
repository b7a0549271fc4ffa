package dev.redrive.cli;

import dev.redrive.core.quarantine.Actor;
import java.io.PrintWriter;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Who is acting, for the audit trail: {@code --actor NAME} when given, else the caller's identity in AWS (the ARN
 * STS GetCallerIdentity returns: the role session or user the credentials belong to), else the OS user. Asked only by
 * commands that write, and only once per run.
 */
final class ActorResolver {

    private final CliContext context;
    private final Supplier<AwsClients> aws;
    private final String flag;
    private final PrintWriter err;
    private Actor resolved;

    ActorResolver(CliContext context, Supplier<AwsClients> aws, String flag, PrintWriter err) {
        this.context = context;
        this.aws = aws;
        this.flag = flag;
        this.err = err;
    }

    synchronized Actor actor() {
        if (resolved == null) {
            resolved = resolve();
        }
        return resolved;
    }

    private Actor resolve() {
        if (flag != null && !flag.isBlank()) {
            return person(flag.strip(), "--actor");
        }
        try {
            String arn = aws.get().sts().getCallerIdentity().arn();
            if (arn != null && !arn.isBlank()) {
                return person(arn, "the AWS caller identity");
            }
        } catch (SdkException | CliException e) {
            err.println("redrive: could not ask STS who you are (" + AwsErrors.brief(AwsErrors.oneLine(e))
                    + "); acting as OS user '" + context.osUser() + "'. Pass --actor NAME to name yourself.");
        }
        return person(context.osUser(), "the OS user");
    }

    private static Actor person(String name, String source) {
        try {
            return Actor.person(name);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("cannot act as '" + name + "' (from " + source + "): " + e.getMessage());
        }
    }
}
