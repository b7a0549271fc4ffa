package dev.redrive.localrun.eventsource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.redrive.localrun.eventsource.AwsTrafficProxy.Call;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Hook;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Reply;
import dev.redrive.localrun.eventsource.AwsTrafficProxy.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two hooks on one proxy: the first that does not pass a call on answers it; both see every answer. */
class HookInOrderTest {

    private final List<String> seen = new ArrayList<>();
    private final Call call = new Call("sqs", "POST", "/", null, Map.of(), new byte[0]);
    private final Reply reply = new Reply(200, new byte[0]);

    private Hook hook(String name, Verdict before, Verdict after) {
        return new Hook() {
            @Override
            public Verdict before(Call c) {
                seen.add(name + ":before");
                return before;
            }

            @Override
            public Verdict after(Call c, Reply r) {
                seen.add(name + ":after");
                return after;
            }
        };
    }

    @Test
    void theFirstThatDoesNotPassACallOnAnswersItAndTheOtherNeverSeesIt() {
        Verdict drop = Verdict.drop();
        Hook both = Hook.inOrder(hook("a", drop, Verdict.pass()), hook("b", Verdict.pass(), Verdict.pass()));

        assertThat(both.before(call)).isSameAs(drop);
        assertThat(seen).containsExactly("a:before");
    }

    @Test
    void aDelayOfTheSecondStandsWhenTheFirstPasses() {
        Hook both =
                Hook.inOrder(hook("a", Verdict.pass(), Verdict.pass()), hook("b", Verdict.delay(30), Verdict.pass()));

        assertThat(both.before(call).delayMillis()).isEqualTo(30);
        assertThat(seen).containsExactly("a:before", "b:before");
    }

    @Test
    void bothSeeTheAnswerADropWinsAndEveryActionAfterItRuns() {
        List<String> ran = new ArrayList<>();
        Hook both = Hook.inOrder(
                hook("a", Verdict.pass(), Verdict.passThen(() -> ran.add("a's kill"))),
                hook("b", Verdict.pass(), Verdict.drop()));

        Verdict v = both.after(call, reply);

        assertThat(v.kind()).isEqualTo(Verdict.Kind.DROP);
        assertThat(seen).containsExactly("a:after", "b:after");
        assertThat(ran).as("run at once, as the answer is dropped").containsExactly("a's kill");
    }

    @Test
    void actionsOfBothRunOnceTheAnswerIsReturned() {
        List<String> ran = new ArrayList<>();
        Hook both = Hook.inOrder(
                hook("a", Verdict.pass(), Verdict.passThen(() -> ran.add("a"))),
                hook("b", Verdict.pass(), Verdict.passThen(() -> ran.add("b"))));

        Verdict v = both.after(call, reply);

        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(ran).as("not before the answer is returned").isEmpty();
        v.afterReturned().run();
        assertThat(ran).containsExactly("a", "b");
    }
}
