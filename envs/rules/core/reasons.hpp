// Why a choice is not legal, as the native core says it: a reason code, the maneuver it is
// about and up to five int arguments (ids, numbers). Python renders the text
// (envs/rules/reason_texts.py: one template per code, keyed by the code's name below), so
// the core handles no strings in its hot path. The X-macro keeps the enum
// and the names the renderer looks up in one list; its order is the code's value.
#pragma once

#include <array>
#include <cstdint>

namespace hexdojo {

// name, (arguments the renderer reads)
#define HEXDOJO_REASONS(X)                                                                 \
    X(Ok)                /* legal */                                                       \
    X(NotAvailable)      /* out of scope */                                                \
    X(NotAction)         /* tags */                                                        \
    X(NotFollow)         /* window.after */                                                \
    X(TwoHandedBlockBar) /* weapon (aom3221) */                                            \
    X(OnlyReactions)     /* window.reactions_only */                                       \
    X(NotReaction)       /* tags */                                                        \
    X(NoTrigger)         /* reacts_to */                                                   \
    X(OnlyAnswers)       /* against */                                                     \
    X(NoDefence)         /* window.attack */                                               \
    X(ArmLocked)         /* hold kind or -1 (aom322e) */                                   \
    X(NoFreeArm)         /* hold kind or -1 */                                             \
    X(LimbLocked)        /* limb */                                                        \
    X(NeedsAp)           /* cost, fighter, AP */                                           \
    X(ProneBars)         /* prone.allowed */                                               \
    X(NotProne)          /* */                                                             \
    X(NotHeld)           /* fighter */                                                     \
    X(HeldBars)          /* hold kind */                                                   \
    X(HeldFromBehind)    /* (aom3216) */                                                   \
    X(HoldingStays)      /* */                                                             \
    X(NotMounted)        /* (§1.20) */                                                     \
    X(NoSaddleKick)      /* (§5.26) */                                                     \
    X(NeedsWeapon)       /* maneuver's weapon need */                                      \
    X(NothingToReady)    /* */                                                             \
    X(NoEmptyHand)       /* */                                                             \
    X(NothingInHands)    /* */                                                             \
    X(NothingStuck)      /* fighter */                                                     \
    X(TakesNoTarget)     /* */                                                             \
    X(NeedsOpponent)     /* */                                                             \
    X(TargetOut)         /* fighter, out */                                                \
    X(SameSide)          /* fighter */                                                     \
    X(HeldOnlyHolder)    /* */                                                             \
    X(OneHold)           /* fighter held */                                                \
    X(NeedsHoldKind)     /* fighter */                                                     \
    X(PullDownNeedsHold) /* fighter */                                                     \
    X(ThrowNeedsHold)    /* fighter */                                                     \
    X(SameHeight)        /* */                                                             \
    X(ChooseTurn)        /* */                                                             \
    X(FollowWay)         /* direction */                                                   \
    X(FollowFarther)     /* hexes */                                                       \
    X(LeavesArena)       /* */                                                             \
    X(OccupiedPath)      /* */                                                             \
    X(ShieldSide)        /* arc, weapon, hand */                                           \
    X(FrontArcOnly)      /* arc */                                                         \
    X(NoRoomToDodge)     /* */                                                             \
    X(NotClose)          /* fighter */                                                     \
    X(CloseHolding)      /* */                                                             \
    X(CloseFront)        /* fighter */                                                     \
    X(FlyHolding)        /* */                                                             \
    X(NotAdjacent)       /* fighter */                                                     \
    X(NotInFront)        /* fighter */                                                     \
    X(AdvanceHolding)    /* */                                                             \
    X(AdvanceOccupied)   /* */                                                             \
    X(OwnHexWeapon)      /* fighter, weapon */                                             \
    X(OutOfReach)        /* fighter, weapon */                                             \
    X(OutOfPoleReach)    /* fighter, weapon */                                             \
    X(WholeBody)         /* */                                                             \
    X(NeedsAim)          /* */                                                             \
    X(CannotAim)         /* location */                                                    \
    X(LockHeldArm)       /* location */                                                    \
    X(LandingOff)        /* */                                                             \
    X(NothingInHand)     /* hand */                                                        \
    X(TwoHandedDrop)     /* */                                                             \
    X(TwoHandedRight)    /* weapon */                                                      \
    X(WrongWeapon)       /* hand, weapon */                                                \
    X(NoSuchMode)        /* weapon, modes */                                               \
    X(ModeAp)            /* weapon, mode, AP, fighter, AP */                               \
    X(ArmHeld)           /* hand (aom3225) */                                              \
    X(WeaponLocked)      /* weapon (aom3145) */                                            \
    X(BlockingWeapon)    /* weapon (aom3145) */                                            \
    X(ReadyBadOption)    /* last weapon id */                                              \
    X(ReadyNotThere)     /* weapon */                                                      \
    X(ReadyHands)        /* weapon, hands */                                               \
    X(GrabBlockedArm)    /* location (aom3225) */                                          \
    X(BadTurn)           /* */                                                             \
    X(BadOption)         /* */                                                             \
    X(CounterTarget)     /* */                                                             \
    X(NotPossible)       /* */                                                             \
    X(PhasingCounter)    /* (aom3221, aom3225) */                                          \
    X(MountedSameHex)    /* (aom3221, aom3225) */                                          \
    X(GrabNoArm)         /* limb (aom3225) */

enum class R : std::int16_t {
#define HEXDOJO_REASON_ENUM(name) k##name,
    HEXDOJO_REASONS(HEXDOJO_REASON_ENUM)
#undef HEXDOJO_REASON_ENUM
        kCount
};

inline constexpr std::array<const char*, static_cast<std::size_t>(R::kCount)> kReasonNames{
#define HEXDOJO_REASON_NAME(name) #name,
    HEXDOJO_REASONS(HEXDOJO_REASON_NAME)
#undef HEXDOJO_REASON_NAME
};

// A reason: kOk (legal) or why not, about maneuver id `maneuver`, with its arguments.
struct Reason {
    R code = R::kOk;
    int maneuver = -1;
    std::array<int, 5> a{};

    explicit operator bool() const { return code != R::kOk; }
};

}  // namespace hexdojo
