package io.github.odrust.agent;

import io.github.odrust.agent.runner.Agent;
import java.nio.file.Paths;

/**
 * {@code java -cp <test classpath>:odrust-jvm-agent.jar io.github.odrust.agent.Main <plan-file>}: runs
 * the plan with the {@link io.github.odrust.agent.runner runner}. This class name is on every test
 * JVM's command line (the Maven plugin starts it), so it stays here.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("--serve")) {
            // -Dodrust.isolation=classloader: one JVM runs plan after plan (docs/isolation.md).
            int status = io.github.odrust.agent.serve.Server.serve();
            System.out.flush();
            System.err.flush();
            System.exit(status);
        }
        if (args.length != 1) {
            System.err.println(
                    "usage: java -cp <test-classpath>:odrust-jvm-agent.jar io.github.odrust.agent.Main <plan-file>");
            System.exit(2);
        }
        int status = Agent.run(Paths.get(args[0]));
        System.out.flush();
        System.err.flush();
        // end non-daemon threads the tests may have left behind
        System.exit(status);
    }
}
