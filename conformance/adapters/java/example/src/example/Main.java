package example;

import sessionref.kit.Adapter;

/** The example port as a protocol adapter. */
public final class Main {
    public static void main(String[] args) throws Exception {
        Adapter.serve(new ExamplePort());
    }
}
