package org.lexgraph.neo4jlocal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import com.sun.net.httpserver.HttpServer;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * A local Neo4j 5.26 Community server in one process, for development and CI where no Docker engine runs
 * (docs/neo4j.md, "Without Docker"). Settings come from the environment so that `make neo4j` and a user's shell
 * configure it the same way:
 *
 * <ul>
 *   <li>NEO4J_LOCAL_DIR: the server's home (store, transaction logs, neo4j.log); default ./neo4j-local-data</li>
 *   <li>NEO4J_LOCAL_BOLT_PORT: Bolt, on 127.0.0.1; default 7687</li>
 *   <li>NEO4J_LOCAL_HTTP_PORT: HTTP (the Browser's API), on 127.0.0.1; default 7474; 0 turns it off</li>
 *   <li>NEO4J_LOCAL_PAGECACHE: page cache size, e.g. 1g or 512m; default 1g</li>
 *   <li>NEO4J_LOCAL_GUIDE_PORT: lexgraph's Browser guide and style sheet, for Browser's
 *       {@code :play http://localhost:PORT/browser-guide.html} and {@code :style http://localhost:PORT/lexgraph.grass};
 *       default 7476; 0 turns it off</li>
 * </ul>
 *
 * Authentication is off: the server listens on the loopback interface only, and a development store needs no
 * password (any user name and password are accepted). The heap is set on the java command line (-Xmx).
 */
public final class Main {
    private Main() {}

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static int port(String name, int fallback) {
        String raw = env(name, Integer.toString(fallback));
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + raw + " is not a port number; give e.g. " + fallback);
        }
    }

    /** "1g", "512m", "1048576k" or a byte count. */
    private static long bytes(String name, String fallback) {
        String raw = env(name, fallback).toLowerCase();
        char unit = raw.charAt(raw.length() - 1);
        String digits = Character.isDigit(unit) ? raw : raw.substring(0, raw.length() - 1);
        long n;
        try {
            n = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + raw + " is not a size; give e.g. 1g or 512m");
        }
        return switch (unit) {
            case 'g' -> ByteUnit.gibiBytes(n);
            case 'm' -> ByteUnit.mebiBytes(n);
            case 'k' -> ByteUnit.kibiBytes(n);
            default -> n;
        };
    }

    /**
     * Serve lexgraph's Browser guide and style sheet, bundled in this jar, for {@code :play} and {@code :style}.
     * Browser fetches both from the page, so the answers carry CORS headers; it accepts them only from allowed
     * hosts, and localhost is one by default.
     */
    private static HttpServer serveBrowserFiles(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        for (String[] file : new String[][] {
                {"browser-guide.html", "text/html; charset=utf-8"}, {"lexgraph.grass", "text/plain; charset=utf-8"}}) {
            byte[] body;
            try (InputStream in = Main.class.getResourceAsStream("/lexgraph/" + file[0])) {
                if (in == null) {
                    throw new IOException("the jar holds no lexgraph/" + file[0] + "; rebuild it with mvn package");
                }
                body = in.readAllBytes();
            }
            server.createContext("/" + file[0], exchange -> {
                exchange.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
                if ("OPTIONS".equals(exchange.getRequestMethod())) {  // the preflight of :play's no-cache fetch
                    exchange.getResponseHeaders().add("Access-Control-Allow-Methods", "GET, OPTIONS");
                    exchange.getResponseHeaders().add("Access-Control-Allow-Headers", "*");
                    exchange.sendResponseHeaders(204, -1);
                    exchange.close();
                    return;
                }
                exchange.getResponseHeaders().add("Content-Type", file[1]);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
        }
        server.start();
        return server;
    }

    public static void main(String[] args) throws InterruptedException, IOException {
        Path home = Path.of(env("NEO4J_LOCAL_DIR", "neo4j-local-data")).toAbsolutePath();
        int boltPort = port("NEO4J_LOCAL_BOLT_PORT", 7687);
        int httpPort = port("NEO4J_LOCAL_HTTP_PORT", 7474);
        long pageCache = bytes("NEO4J_LOCAL_PAGECACHE", "1g");
        int guidePort = port("NEO4J_LOCAL_GUIDE_PORT", 7476);
        // Neo4j keeps two days of transaction logs by default, for backups and clusters this server has neither of:
        // the test suite's wipes and re-ingests left 23 GB of them beside a 0.5 GB store. Keep what recovery after
        // a crash needs and about a rotation's worth more.
        String txLogs = env("NEO4J_LOCAL_TX_LOGS", "512M size");

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.keep_logical_logs, txLogs)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(HttpConnector.enabled, httpPort > 0);
        if (httpPort > 0) {
            builder.setConfig(HttpConnector.listen_address, new SocketAddress("127.0.0.1", httpPort))
                    .setConfig(HttpConnector.advertised_address, new SocketAddress("127.0.0.1", httpPort));
        }
        DatabaseManagementService dbms = builder.build();
        HttpServer guide = guidePort > 0 ? serveBrowserFiles(guidePort) : null;
        CountDownLatch stopped = new CountDownLatch(1);
        // SIGTERM (make neo4j-stop) and Ctrl-C shut the store down cleanly, so the next start needs no recovery.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (guide != null) {
                guide.stop(0);
            }
            dbms.shutdown();
            stopped.countDown();
        }, "neo4j-local-shutdown"));
        System.out.println("neo4j-local: Neo4j " + org.neo4j.kernel.internal.Version.getNeo4jVersion()
                + " ready on bolt://127.0.0.1:" + boltPort
                + (httpPort > 0 ? " and http://127.0.0.1:" + httpPort + "/browser/" : "")
                + (guidePort > 0 ? ", guide :play http://localhost:" + guidePort + "/browser-guide.html" : "")
                + ", data in " + home);
        System.out.flush();
        stopped.await();
    }
}
