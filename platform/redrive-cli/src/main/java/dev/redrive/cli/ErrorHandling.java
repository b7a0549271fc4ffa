package dev.redrive.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * One short line on stderr and an exit code for every failure; never a stack trace, unless {@code --verbose} asks for
 * the whole cause.
 */
final class ErrorHandling {

    private ErrorHandling() {}

    /**
     * Bad arguments picocli found (unknown command or option, bad enum value, missing parameter): exit 2, with "did you
     * mean" from {@link Suggestions} for a misspelt command, option or value.
     */
    static int onBadArguments(ParameterException e, String[] args) {
        CommandLine line = e.getCommandLine();
        String name = line.getCommandSpec().qualifiedName(" ");
        line.getErr().println(name + ": " + explain(e, line) + " (see '" + name + " --help')");
        line.getErr().flush();
        return ExitCodes.USAGE;
    }

    private static String explain(ParameterException e, CommandLine line) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String typed = u.getUnmatched().get(0);
            if (!typed.startsWith("-")
                    && !line.getSubcommands().isEmpty()
                    && line.getCommandSpec().positionalParameters().isEmpty()) {
                List<String> commands = new ArrayList<>(line.getSubcommands().keySet());
                commands.remove("help");
                return Suggestions.message("command", typed, commands, null);
            }
            if (typed.startsWith("-")) {
                String option = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
                List<String> options = new ArrayList<>();
                line.getCommandSpec().options().forEach(o -> options.addAll(List.of(o.names())));
                return withHint(AwsErrors.oneLine(e), Suggestions.didYouMean(option, options));
            }
        }
        ArgSpec arg = e.getArgSpec();
        if (arg != null
                && e.getValue() != null
                && arg.type() != null
                && arg.type().isEnum()) {
            Collection<String> values = new ArrayList<>();
            for (Object constant : arg.type().getEnumConstants()) {
                values.add(((Enum<?>) constant).name());
            }
            String hint = Suggestions.didYouMean(e.getValue(), values);
            if (!hint.isEmpty()) {
                String what = arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
                return "unknown value '" + e.getValue() + "' for " + what + ": " + hint + " Use one of " + values;
            }
        }
        return AwsErrors.oneLine(e);
    }

    private static String withHint(String message, String hint) {
        return hint.isEmpty() ? message : message + "; " + hint;
    }

    /** A failure while a command ran; with {@code --verbose}, the whole cause follows the line. */
    static int onFailure(Exception e, CommandLine line, RedriveCli root) {
        PrintWriter err = line.getErr();
        String name = line.getCommandSpec().qualifiedName(" ");
        int code;
        if (e instanceof CliException c) {
            err.println(name + ": " + c.getMessage());
            code = c.exitCode();
        } else if (e instanceof SdkException s) {
            err.println(name + ": " + describe(root, s));
            code = ExitCodes.CONFIG;
        } else {
            err.println(name + ": unexpected " + e.getClass().getSimpleName() + ": "
                    + AwsErrors.brief(AwsErrors.oneLine(e)));
            code = ExitCodes.INTERNAL;
        }
        if (root.verbose && !(e instanceof CliException && e.getCause() == null)) {
            err.println(name + ": --verbose: the whole cause:");
            e.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static String describe(RedriveCli root, SdkException e) {
        try {
            return root.describe(e);
        } catch (CliException settingsBroken) {
            return AwsErrors.brief(AwsErrors.oneLine(e));
        }
    }
}
