//! The example port as a protocol adapter.
mod lower;
mod port;
mod retention;

fn main() {
    sessionref_kit::serve(port::ExamplePort);
}
