package sessionref.kit;

/** An exception of a port's own type that carries a contract code to the wire. */
public interface Coded {
    /** One of the contract's SESSION_REFERENCE_* codes. */
    String sessionReferenceCode();
}
